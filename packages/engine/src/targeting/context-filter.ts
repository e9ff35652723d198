import { MISSING } from '../context/flatten.js';
import { sharedAccessor } from './intern.js';
import type { ContextFilter } from '../schema/filter.js';
import { operatorFamily } from './operators.js';
import { reportArrayOperator, reportMissing, type CompiledFilter } from './scope.js';

const NO_VALUES: readonly string[] = [];

/** A `context` filter: the field's accessor and the operator's tests, bound once. */
export function compileContextFilter(filter: ContextFilter): CompiledFilter {
  const { field, operator } = filter;
  const family = operatorFamily(operator);
  const values = Array.isArray(filter.values) ? filter.values.slice() : NO_VALUES;
  const read = sharedAccessor(String(field));

  if (!family) {
    // Unknown operator: the library still reports a missing field, and never matches.
    return (scope) => (read(scope.context) === MISSING ? reportMissing(scope, field, operator) : false);
  }

  const scalar = family.scalar(values);
  const array = family.array?.(values);
  const whenMissing = family.missingIsEmpty ? scalar('') : null;

  return (scope) => {
    const value = read(scope.context);
    if (typeof value === 'string') return scalar(value);
    if (value === MISSING) return whenMissing ?? reportMissing(scope, field, operator);
    return array ? array(value) : reportArrayOperator(scope, field, operator);
  };
}
