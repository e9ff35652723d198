import type { Repositories } from '../storage/port.js';
import type { FlagRecord } from '../storage/records.js';

/**
 * Flags standing on other flags (prerequisites), per environment, and the bookkeeping a change to a prerequisite
 * needs: what its dependents serve inlines its rules, so their targeting versions move with it.
 */

/** Flag key → the keys it requires, in one environment. */
export type PrerequisiteGraph = Map<string, string[]>;

export async function prerequisiteGraph(repos: Repositories, appId: string, envId: string): Promise<PrerequisiteGraph> {
  const [flags, rows] = await Promise.all([repos.flags.listByApp(appId), repos.targeting.listByEnv(envId)]);
  const keyOf = new Map(flags.map((f) => [f.id, f.key]));
  const graph: PrerequisiteGraph = new Map();
  for (const row of rows) {
    const key = keyOf.get(row.flagId);
    if (key && row.prerequisites?.length) graph.set(key, row.prerequisites.map((p) => p.flagKey));
  }
  return graph;
}

/** Every flag that requires `key`, directly or through others. */
export function dependentsOf(graph: PrerequisiteGraph, key: string): Set<string> {
  const found = new Set<string>();
  const queue = [key];
  while (queue.length) {
    const target = queue.pop()!;
    for (const [flag, requires] of graph) {
      if (requires.includes(target) && !found.has(flag) && flag !== key) {
        found.add(flag);
        queue.push(flag);
      }
    }
  }
  return found;
}

/** What a dependent serves changed with its prerequisite's rules, so its targeting version moves too (check events). */
export async function bumpDependents(tx: Repositories, appId: string, envId: string, flagKey: string, at: string): Promise<void> {
  const dependents = dependentsOf(await prerequisiteGraph(tx, appId, envId), flagKey);
  for (const key of dependents) {
    const dependent = await tx.flags.getByKey(appId, key);
    const row = dependent && (await tx.targeting.get(dependent.id, envId));
    if (row) await tx.targeting.put({ ...row, version: row.version + 1, updatedAt: at });
  }
}

/**
 * A flag's served rules changed other than through its targeting body (a specific target added or removed): its
 * targeting version moves (SDK check events carry it), and so do those of the flags that require it.
 */
export async function bumpTargetingVersion(tx: Repositories, appId: string, flag: Pick<FlagRecord, 'id' | 'key'>, envId: string, at: string): Promise<void> {
  const t = await tx.targeting.get(flag.id, envId);
  await tx.targeting.put(t ? { ...t, version: t.version + 1, updatedAt: at } : { flagId: flag.id, envId, version: 1, rules: [], configVersion: 0, variants: [], updatedAt: at });
  await bumpDependents(tx, appId, envId, flag.key, at);
}
