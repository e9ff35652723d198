import type { Filter } from '@flagmount/engine';

/**
 * Every rollout filter carries `key` = the flag key (architecture.md), so every client hashes alike: filled in where
 * a rule leaves it out (targeting is stored so, and shown so), and set over whatever a segment's filter held before
 * segments refused one (a segment's rollouts take the key of each flag using it, when served).
 */
export function withRolloutKeys(filter: Filter, flagKey: string): Filter {
  switch (filter.type) {
    case 'rolloutPercentage':
      return filter.key === flagKey ? filter : { ...filter, key: flagKey };
    case 'group':
      return { ...filter, filters: filter.filters.map((f) => withRolloutKeys(f, flagKey)) };
    case 'negation':
      return { ...filter, filter: withRolloutKeys(filter.filter, flagKey) };
    default:
      return filter;
  }
}
