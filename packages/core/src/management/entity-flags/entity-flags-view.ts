import type { EvaluationContext } from '@flagmount/engine';
import type { EntityFlag, EntityFlagsResponse } from '../../schemas/entity-flag.js';
import type { Services } from '../../services.js';
import type { AppRecord, EntityRecord, EnvironmentRecord } from '../../storage/records.js';

/** How long a read waits for this process's snapshot to catch up with the stored version (another replica's write). */
const SNAPSHOT_CATCH_UP_MS = 1000;

/**
 * The evaluation context of a stored entity: its attributes, its name (unless an attribute is called `name`),
 * and its id, which always wins. Only the entity itself: a user's companies are not folded in, so the value is
 * what the flag says about this entity alone.
 */
export function entityContext(entity: EntityRecord): EvaluationContext {
  const attributes: Record<string, unknown> = {
    ...(entity.name != null ? { name: entity.name } : {}),
    ...entity.attributes,
    id: entity.id,
  };
  return entity.type === 'user' ? { user: attributes } : { company: attributes };
}

/**
 * Rows 8/10 (and the answer of 9/11): every flag of the app, by key, on one page. `value` comes from the
 * environment's compiled snapshot, so it is exactly what `/features/evaluated` answers for a context holding only
 * this entity; archived flags are listed with `false` (no SDK is served them).
 */
export async function entityFlagsPage(
  services: Services,
  app: AppRecord,
  env: EnvironmentRecord,
  entity: EntityRecord,
): Promise<EntityFlagsResponse> {
  const { type, id: entityId } = entity;
  const repos = services.storage;
  const [flags, overrides, stats, stored] = await Promise.all([
    repos.flags.listByApp(app.id),
    repos.specificTargets.listForEntity(env.id, type, entityId),
    repos.stats.listEntityFlagStats(env.id, type, entityId),
    repos.environments.get(env.id),
  ]);
  await services.snapshots.waitForVersion(env.id, stored?.flagStateVersion ?? 0, SNAPSHOT_CATCH_UP_MS);
  const compiled = services.snapshots.get(env.id)?.compiled;
  const context = entityContext(entity);
  const overridden = new Set(overrides.map((o) => o.flagId));
  const statsByKey = new Map(stats.map((s) => [s.flagKey, s]));

  const data: EntityFlag[] = [...flags]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((flag) => {
      const s = statsByKey.get(flag.key);
      const override = overridden.has(flag.id);
      // An override is served as a leading rule, so it wins; stating it here keeps the answer right even if the
      // snapshot is a moment behind the store.
      const evaluated = compiled?.evaluate(flag.key, context)?.isEnabled ?? false;
      return {
        id: flag.id,
        key: flag.key,
        name: flag.name,
        createdAt: flag.createdAt,
        value: !flag.archived && (override || evaluated),
        specificTargetValue: override ? true : null,
        firstExposureAt: s?.firstExposureAt ?? null,
        lastExposureAt: s?.lastExposureAt ?? null,
        lastCheckAt: s?.lastCheckAt ?? null,
        exposureCount: s?.exposureCount ?? 0,
        firstTrackAt: s?.firstTrackAt ?? null,
        lastTrackAt: s?.lastTrackAt ?? null,
        trackCount: s?.trackCount ?? 0,
      };
    });
  return { data, totalCount: data.length, pageSize: data.length, pageIndex: 0 };
}
