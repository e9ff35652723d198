import { addIssue, notPossible, type Issues } from '../../http/http-error.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, EnvironmentRecord, FlagRecord, PrerequisiteRecord } from '../../storage/records.js';
import { prerequisiteGraph, type PrerequisiteGraph } from '../../domain/prerequisite-graph.js';

/** The longest chain of prerequisites a flag may stand on (a → b → … counts one per arrow). */
export const MAX_PREREQUISITE_DEPTH = 5;

/** A cycle through the graph, as the keys along it, or the longest chain's length when there is none. */
function walk(graph: PrerequisiteGraph, first: string): { cycle: string[] } | { depth: number; deepest: string } {
  const depth = new Map<string, number>();
  const onPath: string[] = [];
  const visit = (key: string): number | string[] => {
    const known = depth.get(key);
    if (known !== undefined) return known;
    const at = onPath.indexOf(key);
    if (at >= 0) return [...onPath.slice(at), key];
    onPath.push(key);
    let deepest = 0;
    for (const next of graph.get(key) ?? []) {
      const d = visit(next);
      if (Array.isArray(d)) return d;
      deepest = Math.max(deepest, d + 1);
    }
    onPath.pop();
    depth.set(key, deepest);
    return deepest;
  };
  let max = 0;
  let deepest = '';
  for (const key of [first, ...graph.keys()]) {
    const d = visit(key);
    if (Array.isArray(d)) return { cycle: d };
    if (d > max) [max, deepest] = [d, key];
  }
  return { depth: max, deepest };
}

/**
 * Refuses (400 not_possible) prerequisites that are not live flags of the same app, or that would make a cycle or a
 * chain deeper than {@link MAX_PREREQUISITE_DEPTH} in this environment, counting every flag already standing on this one.
 */
export async function checkPrerequisites(
  repos: Repositories,
  app: AppRecord,
  flag: FlagRecord,
  env: EnvironmentRecord,
  prerequisites: readonly PrerequisiteRecord[],
): Promise<void> {
  const issues: Issues = {};
  for (const [i, p] of prerequisites.entries()) {
    const path = `prerequisites.${i}.flagKey`;
    const target = await repos.flags.getByKey(app.id, p.flagKey);
    if (!target) addIssue(issues, path, `Flag ${p.flagKey} is not a flag of this app`);
    else if (target.archived) addIssue(issues, path, `Flag ${p.flagKey} is archived`);
    else if (target.id === flag.id) addIssue(issues, path, 'A flag cannot require itself');
  }
  if (Object.keys(issues).length) throw notPossible('The prerequisites name flags that cannot be required', issues);

  const graph = await prerequisiteGraph(repos, app.id, env.id);
  if (prerequisites.length) graph.set(flag.key, prerequisites.map((p) => p.flagKey));
  else graph.delete(flag.key);
  const result = walk(graph, flag.key);
  if ('cycle' in result) {
    throw notPossible('The prerequisites would make a cycle', { prerequisites: [`The prerequisites would make a cycle: ${result.cycle.join(' → ')}`] });
  }
  if (result.depth > MAX_PREREQUISITE_DEPTH) {
    throw notPossible('The prerequisites are nested too deep', {
      prerequisites: [`Flag ${result.deepest} would stand on a chain of ${result.depth} prerequisites; at most ${MAX_PREREQUISITE_DEPTH} are allowed`],
    });
  }
}

/**
 * Flags that require `flagKey` in any environment of the app, by key: archiving a flag others stand on would turn
 * them off silently, so it is refused with this list.
 */
export async function flagsRequiring(repos: Repositories, app: AppRecord, flagKey: string): Promise<string[]> {
  const envs = await repos.environments.listByApp(app.id);
  const found = new Set<string>();
  for (const env of envs) {
    const graph = await prerequisiteGraph(repos, app.id, env.id);
    for (const [key, requires] of graph) if (requires.includes(flagKey)) found.add(key);
  }
  return [...found].sort();
}
