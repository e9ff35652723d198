import { ROLLOUT_THRESHOLD_MAX, type Filter } from '@flagmount/engine';
import type { Repositories } from '../../storage/port.js';
import type { FlagTargetingRecord, SegmentRecord, StoredRule } from '../../storage/records.js';

/**
 * "Rolled out to everyone": a filter that matches whatever the context is. Only shapes that are true by
 * construction count — a constant true, a 100000 rollout (treated as everyone, as Reflag's UI does), an `and` of
 * such, an `or` containing one, the negation of a constant false. Context filters never count, even when they
 * happen to match every known entity.
 */
export function filterMatchesEveryone(filter: Filter): boolean {
  switch (filter.type) {
    case 'constant':
      return filter.value;
    case 'rolloutPercentage':
      return filter.partialRolloutThreshold >= ROLLOUT_THRESHOLD_MAX;
    case 'group':
      return filter.operator === 'and'
        ? filter.filters.every(filterMatchesEveryone)
        : filter.filters.some(filterMatchesEveryone);
    case 'negation':
      return filter.filter.type === 'constant' && !filter.filter.value;
    default:
      return false;
  }
}

export function ruleMatchesEveryone(rule: StoredRule, segments: ReadonlyMap<string, SegmentRecord>): boolean {
  if (rule.segmentId) {
    const segment = segments.get(rule.segmentId);
    if (!segment) return false;
    if (segment.type !== 'all' && !filterMatchesEveryone(segment.filter)) return false;
  }
  return filterMatchesEveryone(rule.filter);
}

export function targetingMatchesEveryone(
  targeting: Pick<FlagTargetingRecord, 'rules' | 'prerequisites'> | undefined,
  segments: ReadonlyMap<string, SegmentRecord>,
): boolean {
  // A flag gated by other flags reaches only whom they reach.
  if (targeting?.prerequisites?.length) return false;
  return (targeting?.rules ?? []).some((rule) => ruleMatchesEveryone(rule, segments));
}

/**
 * Keeps `rolledOutToEveryoneAt` in step with production targeting: set (once) when every production environment
 * of the app serves the flag to everyone, cleared as soon as one does not. Called inside the mutation that changed
 * targeting, segments or an environment's isProduction; it is a derived field, so it bumps no version itself.
 */
export async function refreshRolloutState(
  tx: Repositories,
  appId: string,
  at: string,
  onlyFlagIds?: ReadonlySet<string>,
): Promise<void> {
  const [envs, flags, segmentRows] = await Promise.all([
    tx.environments.listByApp(appId),
    tx.flags.listByApp(appId),
    tx.segments.listByApp(appId),
  ]);
  const production = envs.filter((env) => env.isProduction);
  const segments = new Map(segmentRows.map((s) => [s.id, s]));
  const targetingByEnv = await Promise.all(
    production.map(async (env) => new Map((await tx.targeting.listByEnv(env.id)).map((t) => [t.flagId, t]))),
  );
  for (const flag of flags) {
    if (onlyFlagIds && !onlyFlagIds.has(flag.id)) continue;
    const everyone =
      production.length > 0 && targetingByEnv.every((byFlag) => targetingMatchesEveryone(byFlag.get(flag.id), segments));
    if (everyone && !flag.rolledOutToEveryoneAt) await tx.flags.update(flag.id, { rolledOutToEveryoneAt: at });
    if (!everyone && flag.rolledOutToEveryoneAt) await tx.flags.update(flag.id, { rolledOutToEveryoneAt: null });
  }
}
