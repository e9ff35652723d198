import { prerequisiteGraph, type PrerequisiteGraph } from '../../domain/prerequisite-graph.js';
import { addIssue, type Issues } from '../../http/http-error.js';
import type { ExportDocument } from '../../schemas/export.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, EnvironmentRecord } from '../../storage/records.js';
import { MAX_PREREQUISITE_DEPTH } from '../targeting/prerequisites.js';

/** A cycle as the keys along it, or the longest chain of prerequisites (a → b → … one arrow per step). */
type Shape = { cycle: string[] } | { chain: string[] };

function shapeOf(graph: PrerequisiteGraph): Shape {
  // Longest chain below each key, as its length and the next key along it (no arrays copied: a file may hold a long chain).
  const below = new Map<string, { depth: number; next: string | undefined }>();
  const onPath: string[] = [];
  const visit = (key: string): number | string[] => {
    const known = below.get(key);
    if (known) return known.depth;
    const at = onPath.indexOf(key);
    if (at >= 0) return [...onPath.slice(at), key];
    onPath.push(key);
    let best = { depth: 0, next: undefined as string | undefined };
    for (const next of graph.get(key) ?? []) {
      const d = visit(next);
      if (Array.isArray(d)) return d;
      if (d + 1 > best.depth) best = { depth: d + 1, next };
    }
    onPath.pop();
    below.set(key, best);
    return best.depth;
  };
  let first: string | undefined;
  let max = -1;
  for (const key of graph.keys()) {
    const d = visit(key);
    if (Array.isArray(d)) return { cycle: d };
    if (d > max) [max, first] = [d, key];
  }
  const chain: string[] = [];
  for (let key = first; key !== undefined; key = below.get(key)?.next) chain.push(key);
  return { chain };
}

/** The problem of `graph` as a message, if any: what PUT targeting refuses (cycles, chains deeper than 5). */
function problemOf(graph: PrerequisiteGraph, envName: string): { keys: string[]; message: string } | undefined {
  const shape = shapeOf(graph);
  if ('cycle' in shape) return { keys: shape.cycle, message: `The prerequisites would make a cycle in ${envName}: ${shape.cycle.join(' → ')}` };
  const depth = shape.chain.length - 1;
  if (depth <= MAX_PREREQUISITE_DEPTH) return undefined;
  return {
    keys: shape.chain.slice(0, -1),
    message: `Flag ${shape.chain[0]} would stand on a chain of ${depth} prerequisites in ${envName} (${shape.chain.join(' → ')}); at most ${MAX_PREREQUISITE_DEPTH} are allowed`,
  };
}

/**
 * Checks prerequisites as they will stand once the whole document is imported: per environment, the stored graph
 * with the document's targeting laid over it (a targeting that omits `prerequisites` keeps the stored ones). The
 * import writes all targeting in one transaction, so the final graph is what must hold — a file may require a flag
 * it creates, or turn a → b into b → a — not each write on the way there. Then each pending schedule of the file
 * is checked against that graph, as `POST …/schedules` checks against the stored one. Problems go into `issues`
 * under the document's field paths.
 */
export async function checkPlannedPrerequisites(
  repos: Repositories,
  app: AppRecord | undefined,
  doc: ExportDocument,
  envs: readonly EnvironmentRecord[],
  issues: Issues,
): Promise<void> {
  const names = new Map<string, string>();
  for (const e of [...doc.environments, ...envs]) if (!names.has(e.name.toLowerCase())) names.set(e.name.toLowerCase(), e.name);
  const flagIndex = new Map(doc.flags.map((f, i) => [f.key, i]));

  for (const [lower, envName] of names) {
    const stored = app && envs.find((e) => e.name.toLowerCase() === lower);
    const graph = stored ? await prerequisiteGraph(repos, app.id, stored.id) : new Map<string, string[]>();
    // Flag key → the path of the document's prerequisites that set its arrows in this environment; `changed`: those
    // that differ from the stored ones (a problem is reported where the file changed something, when it did).
    const source = new Map<string, string>();
    const changed = new Set<string>();
    doc.flags.forEach((flag, i) => {
      for (const [name, t] of Object.entries(flag.targeting)) {
        if (name.toLowerCase() !== lower || t.prerequisites === undefined) continue;
        const keys = t.prerequisites.map((p) => p.flagKey);
        if ([...keys].sort().join('\n') !== [...(graph.get(flag.key) ?? [])].sort().join('\n')) changed.add(flag.key);
        if (keys.length) graph.set(flag.key, keys);
        else graph.delete(flag.key);
        source.set(flag.key, `flags.${i}.targeting.${name}.prerequisites`);
      }
    });
    // Archiving a flag that stored targeting still requires is refused, as on PATCH.
    for (const [key, requires] of graph) {
      if (source.has(key)) continue;
      for (const target of requires) {
        const i = flagIndex.get(target);
        if (i !== undefined && doc.flags[i]!.archived) addIssue(issues, `flags.${i}.archived`, `flag ${key} requires it in ${envName}`);
      }
    }
    const problem = problemOf(graph, envName);
    if (problem) {
      const where = problem.keys.find((k) => changed.has(k)) ?? problem.keys.find((k) => source.has(k));
      addIssue(issues, (where && source.get(where)) ?? 'flags', problem.message);
      continue;
    }
    doc.flags.forEach((flag, i) => {
      for (const [name, schedules] of Object.entries(flag.schedules ?? {})) {
        if (name.toLowerCase() !== lower) continue;
        schedules.forEach((s, j) => {
          if (!s.targeting.prerequisites?.length) return;
          const scheduled = new Map(graph).set(flag.key, s.targeting.prerequisites.map((p) => p.flagKey));
          const found = problemOf(scheduled, envName);
          if (found) addIssue(issues, `flags.${i}.schedules.${name}.${j}.targeting.prerequisites`, found.message);
        });
      }
    });
  }
}
