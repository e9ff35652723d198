import type { Filter } from '@flagmount/engine';
import type { StoredRule } from '@flagmount/core';
import { SEGMENTS, type Condition, type MixFlag } from './flag-mix.js';

/** Flagmount's rule shape for a flag of the mix; `segmentIds[i]` is the id of SEGMENTS[i]. */
export function conditionFilter(condition: Condition): Filter {
  return { type: 'context', field: condition.field, operator: 'ANY_OF', values: condition.values };
}

export function flagmountRules(flag: MixFlag, segmentIds: readonly string[]): StoredRule[] {
  switch (flag.kind) {
    case 'constant':
      return [{ filter: { type: 'constant', value: flag.on } }];
    case 'attribute':
      return [{ filter: conditionFilter(flag.condition) }];
    case 'segment': {
      const segmentId = segmentIds[flag.segment];
      if (!segmentId) throw new Error(`no id for segment ${flag.segment}`);
      return [{ filter: { type: 'constant', value: true }, segmentId }];
    }
    case 'rollout':
      // 0..100000 scale (reflag-clients.md), hashed on the user id with the flag key.
      return [
        {
          filter: {
            type: 'rolloutPercentage',
            key: flag.key,
            partialRolloutAttribute: 'user.id',
            partialRolloutThreshold: flag.percent * 1000,
          },
        },
      ];
  }
}

export const segmentFilters = (): Array<{ name: string; filter: Filter }> =>
  SEGMENTS.map((s) => ({ name: s.name, filter: conditionFilter(s.condition) }));
