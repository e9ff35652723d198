import { validateFilter, type Filter } from '@flagmount/engine';
import { addIssue, invalidRequest, notFound, notPossible, type Issues } from '../../http/http-error.js';
import type { MutationTx } from '../../domain/mutation.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, SegmentRecord } from '../../storage/records.js';

/**
 * Semantic filter checks (arity, thresholds, field paths, no rollout `key`: a segment's rollout hashes with the key
 * of each flag using it) the schema cannot express → 400 invalid_request.
 */
export function checkFilter(filter: Filter, prefix: string): void {
  const issues: Issues = {};
  for (const issue of validateFilter(filter, { rolloutKey: null })) addIssue(issues, issue.path ? `${prefix}.${issue.path}` : prefix, issue.message);
  if (Object.keys(issues).length) throw invalidRequest('Invalid filter', issues);
}

export async function loadSegment(tx: Repositories, app: AppRecord, segmentId: string): Promise<SegmentRecord> {
  const segment = await tx.segments.get(segmentId);
  if (!segment || segment.appId !== app.id) throw notFound(`Segment ${segmentId}`);
  return segment;
}

/** The `all` segment is the app's "everyone": renaming or refiltering it would silently retarget every rule using it. */
export function refuseAllSegment(segment: SegmentRecord): void {
  if (segment.type === 'all') throw notPossible('The "all" segment cannot be changed or deleted');
}

/** (flagId, envId) pairs whose rules reference the segment, over every environment of the app. */
export async function segmentUsage(
  tx: Repositories,
  appId: string,
  segmentId: string,
): Promise<Array<{ flagId: string; envId: string }>> {
  const envs = await tx.environments.listByApp(appId);
  const usage: Array<{ flagId: string; envId: string }> = [];
  for (const env of envs) {
    for (const t of await tx.targeting.listByEnv(env.id)) {
      if (t.rules.some((r) => r.segmentId === segmentId)) usage.push({ flagId: t.flagId, envId: env.id });
    }
  }
  return usage;
}

/**
 * A segment change, create and delete included, is a flag-state change of every environment of the app
 * (architecture.md, flagStateVersion): one rule for all three, so a client waiting on versions never has to know
 * whether a segment was in use.
 */
export async function segmentChangesFlagState(tx: MutationTx, appId: string): Promise<void> {
  const envs = await tx.environments.listByApp(appId);
  tx.changesFlagState(...envs.map((e) => e.id));
}
