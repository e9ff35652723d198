import type { ConfigVariant, Filter } from '@flagmount/engine';
import type { Flagmount, FlagRecord } from '@flagmount/core';
import { newId } from '../../../../packages/core/src/domain/ids.js';
import { mutate } from '../../../../packages/core/src/domain/mutation.js';

/**
 * Seeds flags straight through storage + `mutate` (one bump per environment), so the runtime suite does not depend
 * on the management routes being there. SDK tests go through the management API instead.
 */
export interface SeedFlag {
  key: string;
  name?: string;
  description?: string | null;
  secret?: boolean;
  archived?: boolean;
  stageId?: string | null;
  /** Rules per environment id; environments not listed get none (the flag is off there). */
  rules?: Record<string, Filter[]>;
  variants?: Record<string, ConfigVariant[]>;
}

export async function seedFlags(instance: Flagmount, appId: string, flags: SeedFlag[]): Promise<FlagRecord[]> {
  const services = instance.services;
  const envs = await services.storage.environments.listByApp(appId);
  const app = await services.storage.apps.get(appId);
  const at = services.now().toISOString();
  const { result } = await mutate(services, { orgId: app!.orgId, actor: 'system' }, async (tx) => {
    const rows: FlagRecord[] = [];
    for (const f of flags) {
      const row: FlagRecord = {
        id: newId('fl'),
        appId,
        key: f.key,
        name: f.name ?? f.key,
        description: f.description ?? null,
        stageId: f.stageId ?? null,
        ownerUserId: null,
        parentFlagId: null,
        archived: f.archived ?? false,
        permanent: false,
        secret: f.secret ?? false,
        createdAt: at,
        updatedAt: at,
        rolledOutToEveryoneAt: null,
        codeRefsMarkedCleanAt: null,
        codeRefsMarkedCleanUserName: null,
        codeRefsCleanedUp: false,
      };
      await tx.flags.insert(row);
      for (const env of envs) {
        const rules = f.rules?.[env.id] ?? [];
        const variants = f.variants?.[env.id] ?? [];
        if (rules.length || variants.length) {
          await tx.targeting.put({
            flagId: row.id,
            envId: env.id,
            version: 1,
            rules: rules.map((filter) => ({ filter })),
            configVersion: variants.length ? 1 : 0,
            variants,
            updatedAt: at,
          });
        }
      }
      rows.push(row);
    }
    tx.changesFlagState(...envs.map((e) => e.id));
    return rows;
  });
  return result;
}

/** Bumps an environment's flagStateVersion once without changing anything else (for waitForVersion tests). */
export async function bump(instance: Flagmount, appId: string, envId: string): Promise<number> {
  const app = await instance.services.storage.apps.get(appId);
  const { versions } = await mutate(instance.services, { orgId: app!.orgId, actor: 'system' }, async (tx) => {
    tx.changesFlagState(envId);
  });
  return versions[envId]!;
}

export const userIs = (id: string): Filter => ({ type: 'context', field: 'user.id', operator: 'IS', values: [id] });
export const always: Filter = { type: 'constant', value: true };
