import type { ContextOperator } from '../schema/filter.js';
import * as arrays from './array-ops.js';
import { isFalse, isTrue } from './boolean.js';
import { afterDaysAgo, beforeDaysAgo, dateAfter, dateBefore } from './date.js';
import { gt, lt } from './numeric.js';
import type { OperatorFamily } from './operator.js';
import { notSet, notSetArray, set, setArray } from './set.js';
import * as strings from './string-ops.js';

/** The operator table: the library's scalar semantics beside the spec's array semantics. */
export const OPERATORS: Readonly<Record<ContextOperator, OperatorFamily>> = {
  IS: { scalar: strings.is, array: arrays.isArray },
  IS_NOT: { scalar: strings.isNot, array: arrays.isNotArray },
  ANY_OF: { scalar: strings.anyOf, array: arrays.anyOfArray },
  NOT_ANY_OF: { scalar: strings.notAnyOf, array: arrays.notAnyOfArray },
  CONTAINS: { scalar: strings.contains, array: arrays.containsArray },
  NOT_CONTAINS: { scalar: strings.notContains, array: arrays.notContainsArray },
  GT: { scalar: gt, array: null },
  LT: { scalar: lt, array: null },
  AFTER: { scalar: afterDaysAgo, array: null },
  BEFORE: { scalar: beforeDaysAgo, array: null },
  DATE_AFTER: { scalar: dateAfter, array: null },
  DATE_BEFORE: { scalar: dateBefore, array: null },
  SET: { scalar: set, array: setArray, missingIsEmpty: true },
  NOT_SET: { scalar: notSet, array: notSetArray, missingIsEmpty: true },
  IS_TRUE: { scalar: isTrue, array: null },
  IS_FALSE: { scalar: isFalse, array: null },
};

export function operatorFamily(operator: string): OperatorFamily | undefined {
  return Object.prototype.hasOwnProperty.call(OPERATORS, operator)
    ? OPERATORS[operator as ContextOperator]
    : undefined;
}
