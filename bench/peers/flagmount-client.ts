import { createFlagmount, newFlagRecord, type Flagmount } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { discardingAnalytics } from './analytics-discarding.js';
import { flagmountFlag } from './eval-engines.js';

/**
 * A Flagmount instance on the memory store whose default environment serves the eval bench's flag (rule 1
 * `company.plan IS enterprise`, rule 2 a 50% rollout on the user id), for the in-process client's rows: the host's
 * own path (`flags.client.isEnabled`), analytics on, as `createFlagmount` sets it up. What its flushes write is
 * dropped at the store (see `discardingAnalytics`).
 */
export async function flagmountWithFlag(key: string): Promise<Flagmount> {
  const flags = await createFlagmount({ storage: discardingAnalytics(memoryStorage()), bootstrap: true });
  const { appId, environments } = flags.bootstrap!;
  const envId = environments.find((e) => e.name === 'Development')!.id;
  const at = new Date().toISOString();
  const storage = flags.services.storage;
  const rules = flagmountFlag(key).rules.map((rule) => ({ filter: rule.filter }));
  await storage.transaction(async (tx) => {
    const record = newFlagRecord({ id: 'fl_bench', appId, key, name: key, createdAt: at });
    await tx.flags.insert(record);
    await tx.targeting.put({ flagId: record.id, envId, version: 1, rules, configVersion: 0, variants: [], updatedAt: at });
    tx.publishChange(envId, await tx.environments.bumpVersion(envId));
  });
  await flags.services.snapshots.reload(envId);
  if (!flags.client.hasFlag(key)) throw new Error('bench flag not served');
  return flags;
}
