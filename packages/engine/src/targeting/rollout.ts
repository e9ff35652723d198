import { MISSING } from '../context/flatten.js';
import { sharedAccessor } from './intern.js';
import type { RolloutPercentageFilter } from '../schema/filter.js';
import { rolloutHasher } from './rollout-hash.js';
import { reportArrayOperator, reportMissing, type CompiledFilter } from './scope.js';

export { rolloutHash } from './rollout-hash.js';

const OPERATOR = 'rolloutPercentage';

/** What a rollout filter hashes its value after: its own key, else the flag's, and a dot. */
export const rolloutPrefix = (filter: RolloutPercentageFilter, flagKey: string): string => `${filter.key ?? flagKey}.`;

/**
 * Whether the threshold decides without hashing (the hash is within 0..100000): true or false, else null. A
 * missing field is still reported.
 */
export function decidedRollout(filter: RolloutPercentageFilter): boolean | null {
  const threshold = filter.partialRolloutThreshold;
  return typeof threshold !== 'number' ? null : threshold <= 0 ? false : threshold > 100000 ? true : null;
}

/** Match iff `rolloutHash(key + "." + value) < threshold`; `key` defaults to the flag's key. */
export function compileRolloutFilter(filter: RolloutPercentageFilter, flagKey: string): CompiledFilter {
  const attribute = filter.partialRolloutAttribute;
  const hasher = rolloutHasher(rolloutPrefix(filter, flagKey));
  const threshold = filter.partialRolloutThreshold;
  const read = sharedAccessor(String(attribute));
  const decided = decidedRollout(filter);

  return (scope) => {
    const value = read(scope.context);
    if (typeof value === 'string') return decided ?? hasher.hash(value, read) < threshold;
    if (value === MISSING) return reportMissing(scope, attribute, OPERATOR);
    // The spec gives no rollout over an array; like any operator that does not work with arrays, it fails.
    return reportArrayOperator(scope, attribute, OPERATOR);
  };
}
