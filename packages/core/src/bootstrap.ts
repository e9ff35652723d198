import { newId, newManagementKey, newPublishableKey, newSecretKey } from './domain/ids.js';
import type { Logger } from './logger.js';
import { ALL_SCOPES, type BootstrapOptions, type BootstrapResult } from './options.js';
import { sha256Hex } from './security/secrets.js';
import { ConflictError } from './storage/errors.js';
import type { Storage } from './storage/port.js';

/**
 * The bootstrap organisation has a fixed id: when several replicas start at once on an empty shared database,
 * exactly one insert wins and the others see a conflict and read what the winner created.
 */
export const BOOTSTRAP_ORG_ID = 'orflagmount001';

export const DEFAULT_STAGES = [
  { name: 'In development', color: '#6b7280' },
  { name: 'Internal', color: '#8b5cf6' },
  { name: 'Beta', color: '#f59e0b' },
  { name: 'General availability', color: '#10b981' },
] as const;

export async function bootstrap(storage: Storage, options: BootstrapOptions, logger: Logger, now: Date): Promise<BootstrapResult> {
  const managementKey = options.managementKey ?? newManagementKey();
  const at = now.toISOString();
  try {
    await storage.transaction(async (tx) => {
      if ((await tx.organizations.list()).length) throw new ConflictError('already bootstrapped');
      await tx.organizations.insert({ id: BOOTSTRAP_ORG_ID, name: options.organizationName ?? 'My organization', createdAt: at });
      const appId = newId('ap');
      await tx.apps.insert({ id: appId, orgId: BOOTSTRAP_ORG_ID, name: options.appName ?? 'My app', demo: false, flagKeyFormat: 'custom', createdAt: at });
      const envs = [
        { name: 'Development', isProduction: false, keys: options.sdkKeys?.development },
        { name: 'Production', isProduction: true, keys: options.sdkKeys?.production },
      ];
      for (const [order, env] of envs.entries()) {
        await tx.environments.insert({
          id: newId('en'),
          appId,
          name: env.name,
          isProduction: env.isProduction,
          order,
          flagStateVersion: 0,
          publishableKey: env.keys?.publishableKey ?? newPublishableKey(),
          secretKey: env.keys?.secretKey ?? newSecretKey(),
          createdAt: at,
        });
      }
      for (const [order, stage] of DEFAULT_STAGES.entries()) {
        await tx.stages.insert({ id: newId('st'), appId, name: stage.name, color: stage.color, order });
      }
      await tx.segments.insert({ id: newId('sg'), appId, name: 'All', type: 'all', filter: { type: 'constant', value: true }, createdAt: at, updatedAt: at });
      await tx.managementKeys.insert({
        id: newId('mk'),
        orgId: BOOTSTRAP_ORG_ID,
        name: 'Bootstrap key',
        scopes: [...ALL_SCOPES],
        hash: sha256Hex(managementKey),
        prefix: managementKey.slice(0, 8),
        createdAt: at,
        lastUsedAt: null,
        revokedAt: null,
      });
    });
    logger.info('flagmount: bootstrapped an empty store');
    return { ...(await describe(storage)), created: true, managementKey };
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
  // Already set up. A key passed explicitly (FLAGMOUNT_MANAGEMENT_KEY) is made to work, so scripts that start the
  // app with a known key keep working against an existing database.
  if (options.managementKey && !(await storage.managementKeys.getByHash(sha256Hex(options.managementKey)))) {
    const [org] = await storage.organizations.list();
    if (org) {
      await storage.managementKeys.insert({
        id: newId('mk'),
        orgId: org.id,
        name: 'Bootstrap key (from configuration)',
        scopes: [...ALL_SCOPES],
        hash: sha256Hex(options.managementKey),
        prefix: options.managementKey.slice(0, 8),
        createdAt: at,
        lastUsedAt: null,
        revokedAt: null,
      }).catch((error: unknown) => {
        if (!(error instanceof ConflictError)) throw error;
      });
    }
  }
  return { ...(await describe(storage)), created: false };
}

async function describe(storage: Storage): Promise<Omit<BootstrapResult, 'created' | 'managementKey'>> {
  const [org] = await storage.organizations.list();
  const [app] = await storage.apps.list(org ? { orgId: org.id } : {});
  const envs = app ? await storage.environments.listByApp(app.id) : [];
  return {
    organizationId: org?.id ?? '',
    appId: app?.id ?? '',
    environments: envs.map((e) => ({ id: e.id, name: e.name, publishableKey: e.publishableKey, secretKey: e.secretKey })),
  };
}
