import type { CompiledFilter } from './scope.js';

/**
 * Group and negation. Groups short-circuit like the library's `reduce` (`acc && next`): filters after the
 * deciding one are not evaluated, so their missing fields are not reported. An empty `and` is true, an empty
 * `or` false; any operator other than "and" behaves as "or" (the library tests `operator === "and"`).
 */
export function compileGroup(operator: unknown, filters: readonly CompiledFilter[]): CompiledFilter {
  const all = operator === 'and';
  const [a, b] = filters;
  if (filters.length === 0) return () => all;
  if (filters.length === 1) return a!;
  if (filters.length === 2) return all ? (s) => a!(s) && b!(s) : (s) => a!(s) || b!(s);
  const list = filters.slice();
  return all
    ? (scope) => {
        for (let i = 0; i < list.length; i++) if (!list[i]!(scope)) return false;
        return true;
      }
    : (scope) => {
        for (let i = 0; i < list.length; i++) if (list[i]!(scope)) return true;
        return false;
      };
}

export function compileNegation(filter: CompiledFilter): CompiledFilter {
  return (scope) => !filter(scope);
}

export function compileConstant(value: unknown): CompiledFilter {
  const result = value === true;
  return () => result;
}

/** The library's answer to a filter type it does not know. */
export const never: CompiledFilter = () => false;
