import type { EvaluationError } from '../evaluation.js';

/**
 * State of one flag (or config) evaluation, shared by the compiled filters. The collectors stay null until the
 * first problem, so a clean evaluation allocates nothing for them.
 */
export interface Scope {
  context: object;
  missing: string[] | null;
  errors: EvaluationError[] | null;
  /** Set by an array error: the spec says the affected rule does not match, whatever wraps the filter. */
  ruleFailed: boolean;
}

export type CompiledFilter = (scope: Scope) => boolean;

export function newScope(context: object): Scope {
  return { context, missing: null, errors: null, ruleFailed: false };
}

function addError(scope: Scope, error: EvaluationError): void {
  const errors = (scope.errors ??= []);
  for (const e of errors) {
    if (e.code === error.code && e.field === error.field && e.operator === error.operator) return;
  }
  errors.push(error);
}

/** The library's outcome for a missing field: this filter is false (a negation above it may still match). */
export function reportMissing(scope: Scope, field: string, operator: string): false {
  const missing = (scope.missing ??= []);
  if (!missing.includes(field)) missing.push(field);
  addError(scope, {
    code: 'MISSING_CONTEXT_FIELD',
    field,
    operator,
    message: `context field "${field}" is missing (${operator})`,
  });
  return false;
}

export function reportArrayOperator(scope: Scope, field: string, operator: string): false {
  scope.ruleFailed = true;
  addError(scope, {
    code: 'UNSUPPORTED_ARRAY_OPERATOR',
    field,
    operator,
    message: `${operator} does not work with the array in context field "${field}"`,
  });
  return false;
}
