import type { Filter } from '../schema/filter.js';
import { compileContextFilter } from './context-filter.js';
import { compileConstant, compileGroup, compileNegation, never } from './group.js';
import { compileRolloutFilter } from './rollout.js';
import { canonical, interned } from './intern.js';
import type { CompiledFilter } from './scope.js';

/**
 * Turn a filter tree into one closure. Input is trusted to have passed the schema, but a malformed node
 * compiles to "no match" rather than throwing: one bad rule must not take down a whole snapshot.
 */
export function compileFilter(filter: Filter | null | undefined, flagKey: string): CompiledFilter {
  if (typeof filter !== 'object' || filter === null) return never;
  // Structurally identical filters share one closure (see intern.ts); the flag key only matters to a rollout
  // filter without its own key.
  const state = { keyless: false };
  const text = canonical(filter, state);
  if (text === null) return compileNode(filter, flagKey);
  return interned(state.keyless ? `${text}\u0000${flagKey}` : text, () => compileNode(filter, flagKey));
}

function compileNode(filter: Filter, flagKey: string): CompiledFilter {
  switch (filter.type) {
    case 'constant':
      return compileConstant(filter.value);
    case 'context':
      return compileContextFilter(filter);
    case 'rolloutPercentage':
      return compileRolloutFilter(filter, flagKey);
    case 'group': {
      const children = Array.isArray(filter.filters) ? filter.filters : [];
      return compileGroup(
        filter.operator,
        children.map((child) => compileFilter(child, flagKey)),
      );
    }
    case 'negation':
      return compileNegation(compileFilter(filter.filter, flagKey));
    default:
      return never;
  }
}
