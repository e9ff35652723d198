import type { ContextOperator } from '../../api/types.js';

export interface OperatorInfo {
  label: string;
  /** How many values the operator takes (runtime spec, "Context operators"). */
  arity: 0 | 1 | 'many';
  /** The kind of value input: plain text, a number, a number of days, or a calendar date. */
  input: 'text' | 'number' | 'days' | 'date';
}

/** Every operator the engine knows; `satisfies` makes a new engine operator a type error here. */
export const OPERATORS = {
  IS: { label: 'is', arity: 1, input: 'text' },
  IS_NOT: { label: 'is not', arity: 1, input: 'text' },
  ANY_OF: { label: 'is any of', arity: 'many', input: 'text' },
  NOT_ANY_OF: { label: 'is none of', arity: 'many', input: 'text' },
  CONTAINS: { label: 'contains', arity: 1, input: 'text' },
  NOT_CONTAINS: { label: 'does not contain', arity: 1, input: 'text' },
  GT: { label: 'is greater than', arity: 1, input: 'number' },
  LT: { label: 'is less than', arity: 1, input: 'number' },
  AFTER: { label: 'is later than (days ago)', arity: 1, input: 'days' },
  BEFORE: { label: 'is earlier than (days ago)', arity: 1, input: 'days' },
  DATE_AFTER: { label: 'is on or after date', arity: 1, input: 'date' },
  DATE_BEFORE: { label: 'is on or before date', arity: 1, input: 'date' },
  SET: { label: 'is set', arity: 0, input: 'text' },
  NOT_SET: { label: 'is not set', arity: 0, input: 'text' },
  IS_TRUE: { label: 'is true', arity: 0, input: 'text' },
  IS_FALSE: { label: 'is false', arity: 0, input: 'text' },
} as const satisfies Record<ContextOperator, OperatorInfo>;

export const OPERATOR_NAMES = Object.keys(OPERATORS) as ContextOperator[];

/** The values kept when the operator changes: as many as the new operator takes. */
export function valuesFor(operator: ContextOperator, values: string[]): string[] {
  const { arity } = OPERATORS[operator];
  if (arity === 0) return [];
  if (arity === 1) return [values[0] ?? ''];
  return values.length ? values : [''];
}

/** Suggestions for the attribute field; any attribute of the context works. */
export const FIELD_HINTS = ['user.id', 'user.email', 'user.name', 'company.id', 'company.name', 'company.plan', 'other.'];
