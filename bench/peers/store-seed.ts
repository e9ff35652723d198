import { createFlagmount, newFlagRecord, type Storage } from '@flagmount/core';
import { BENCH_KEYS } from '../servers/host-config.js';
import { openStore } from '../servers/stores.js';
import type { StoreSpec } from '../servers/host-config.js';
import { flagMix } from './flag-mix.js';
import { flagmountRules, segmentFilters } from './flagmount-rules.js';

/**
 * Seeds a store for the memory and startup benchmarks straight through the storage port (no HTTP, no audit):
 * bootstrap (organisation, app, Development + Production), a third environment, the mix's segments, and
 * `flagCount` flags of the mix with targeting in every environment. Chunked transactions keep it fast.
 */

const id = (kind: string, n: number) => `${kind}${String(n).padStart(12, '0')}`;

async function bootstrapOnly(spec: StoreSpec): Promise<{ appId: string }> {
  const instance = await createFlagmount({
    storage: await openStore(spec),
    bootstrap: { managementKey: BENCH_KEYS.managementKey, sdkKeys: { development: { publishableKey: BENCH_KEYS.publishableKey, secretKey: BENCH_KEYS.secretKey } } },
  });
  const appId = instance.bootstrap!.appId;
  await instance.close();
  return { appId };
}

export async function seedStore(spec: StoreSpec, flagCount: number): Promise<{ environments: number; flags: number }> {
  const { appId } = await bootstrapOnly(spec);
  if (flagCount === 0) return { environments: 2, flags: 0 };
  const storage: Storage = await openStore(spec);
  try {
    const at = new Date().toISOString();
    const existing = await storage.environments.listByApp(appId);
    await storage.environments.insert({
      id: id('en', 3),
      appId,
      name: 'Staging',
      isProduction: false,
      order: existing.length,
      flagStateVersion: 0,
      publishableKey: 'pub_benchmark_staging_0123456789abcd',
      secretKey: 'sec_benchmark_staging_0123456789abcd',
      createdAt: at,
    });
    const envIds = (await storage.environments.listByApp(appId)).map((e) => e.id);
    const segmentIds: string[] = [];
    for (const [i, segment] of segmentFilters().entries()) {
      const segmentId = id('sg', i + 1);
      await storage.segments.insert({ id: segmentId, appId, name: segment.name, type: 'custom', filter: segment.filter, createdAt: at, updatedAt: at });
      segmentIds.push(segmentId);
    }
    const flags = flagMix(flagCount);
    const CHUNK = 500;
    for (let start = 0; start < flags.length; start += CHUNK) {
      await storage.transaction(async (tx) => {
        for (const [offset, flag] of flags.slice(start, start + CHUNK).entries()) {
          const record = newFlagRecord({ id: id('fl', start + offset + 1), appId, key: flag.key, name: flag.key, createdAt: at });
          await tx.flags.insert(record);
          const rules = flagmountRules(flag, segmentIds);
          for (const envId of envIds) {
            await tx.targeting.put({ flagId: record.id, envId, version: 1, rules, configVersion: 0, variants: [], updatedAt: at });
          }
        }
      });
    }
    return { environments: envIds.length, flags: flags.length };
  } finally {
    await storage.close();
  }
}
