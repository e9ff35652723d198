import {
  CONTEXT_OPERATORS,
  MULTI_VALUE_OPERATORS,
  NO_VALUE_OPERATORS,
  ROLLOUT_THRESHOLD_MAX,
  type ContextOperator,
  type Filter,
} from './filter.js';

/**
 * Checks the schema cannot express. It also re-checks the shape so that it can be called on unvalidated input
 * without throwing, and reports every problem rather than the first.
 */

export interface FilterIssue {
  /** Dotted path inside the filter, "" for the filter itself, e.g. `filters.0.values`. */
  path: string;
  message: string;
}

const CONTEXT_ROOTS = ['user', 'company', 'other'];
/** `user.profile.roles`: a root, an attribute, and one level of nested grouping (runtime spec, Context). */
const MAX_FIELD_SEGMENTS = 3;

const join = (path: string, member: string | number): string => (path === '' ? String(member) : `${path}.${member}`);

function checkField(field: unknown, path: string, issues: FilterIssue[]): void {
  if (typeof field !== 'string' || field === '') {
    issues.push({ path, message: 'must be a non-empty context path' });
    return;
  }
  const segments = field.split('.');
  if (segments.some((segment) => segment === '')) {
    issues.push({ path, message: `"${field}" has an empty path segment` });
  } else if (!CONTEXT_ROOTS.includes(segments[0]!) || segments.length < 2) {
    issues.push({ path, message: `"${field}" must start with user., company. or other.` });
  } else if (segments.length > MAX_FIELD_SEGMENTS) {
    issues.push({ path, message: `"${field}" is nested too deep: at most one level below an attribute` });
  }
}

function arityMessage(operator: ContextOperator, count: number): string | undefined {
  if (NO_VALUE_OPERATORS.includes(operator)) return count === 0 ? undefined : `${operator} takes no values`;
  if (MULTI_VALUE_OPERATORS.includes(operator)) return count >= 1 ? undefined : `${operator} takes at least one value`;
  return count === 1 ? undefined : `${operator} takes exactly one value`;
}

function checkContext(filter: Record<string, unknown>, path: string, issues: FilterIssue[]): void {
  checkField(filter.field, join(path, 'field'), issues);
  const operator = filter.operator;
  const values = filter.values;
  const valuesPath = join(path, 'values');
  if (!Array.isArray(values)) {
    issues.push({ path: valuesPath, message: 'must be an array of strings' });
  } else {
    values.forEach((value, i) => {
      if (typeof value !== 'string') issues.push({ path: join(valuesPath, i), message: 'must be a string' });
    });
  }
  if (typeof operator !== 'string' || !(CONTEXT_OPERATORS as readonly string[]).includes(operator)) {
    issues.push({ path: join(path, 'operator'), message: `must be one of ${CONTEXT_OPERATORS.join(', ')}` });
    return;
  }
  const message = Array.isArray(values) ? arityMessage(operator as ContextOperator, values.length) : undefined;
  if (message) issues.push({ path: valuesPath, message });
}

/**
 * What a rollout filter's `key` may be: any non-empty string (undefined), exactly this flag key or left out (a
 * string), or left out only (null: a segment's filter, whose rollouts take the key of each flag that uses it).
 */
export interface FilterCheckOptions {
  rolloutKey?: string | null;
}

function checkRollout(filter: Record<string, unknown>, path: string, issues: FilterIssue[], options: FilterCheckOptions): void {
  checkField(filter.partialRolloutAttribute, join(path, 'partialRolloutAttribute'), issues);
  const threshold = filter.partialRolloutThreshold;
  if (!Number.isInteger(threshold) || (threshold as number) < 0 || (threshold as number) > ROLLOUT_THRESHOLD_MAX) {
    issues.push({
      path: join(path, 'partialRolloutThreshold'),
      message: `must be an integer from 0 to ${ROLLOUT_THRESHOLD_MAX} (0 nobody, ${ROLLOUT_THRESHOLD_MAX} everyone)`,
    });
  }
  const key = filter.key;
  if (key === undefined) return;
  const expected = options.rolloutKey;
  if (expected === null) {
    issues.push({ path: join(path, 'key'), message: "must be left out: a segment's rollout hashes with the key of each flag that uses it" });
  } else if (typeof key !== 'string' || key === '' || (expected !== undefined && key !== expected)) {
    const what = expected === undefined ? 'a non-empty string (the flag key)' : `the flag key ${JSON.stringify(expected)}`;
    issues.push({ path: join(path, 'key'), message: `must be ${what} when present: a rollout hashes with its flag's key` });
  }
}

function check(filter: unknown, path: string, issues: FilterIssue[], options: FilterCheckOptions): void {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    issues.push({ path, message: 'must be a filter object' });
    return;
  }
  const node = filter as Record<string, unknown>;
  switch (node.type) {
    case 'group':
      if (node.operator !== 'and' && node.operator !== 'or') {
        issues.push({ path: join(path, 'operator'), message: 'must be "and" or "or"' });
      }
      if (!Array.isArray(node.filters)) {
        issues.push({ path: join(path, 'filters'), message: 'must be an array of filters' });
      } else {
        node.filters.forEach((child, i) => check(child, join(join(path, 'filters'), i), issues, options));
      }
      return;
    case 'negation':
      check(node.filter, join(path, 'filter'), issues, options);
      return;
    case 'context':
      checkContext(node, path, issues);
      return;
    case 'rolloutPercentage':
      checkRollout(node, path, issues, options);
      return;
    case 'constant':
      if (typeof node.value !== 'boolean') issues.push({ path: join(path, 'value'), message: 'must be a boolean' });
      return;
    default:
      issues.push({
        path: join(path, 'type'),
        message: 'must be one of group, negation, context, rolloutPercentage, constant',
      });
  }
}

/** Every semantic problem of a filter tree; an empty array means the filter is valid. */
export function validateFilter(filter: Filter, options: FilterCheckOptions = {}): FilterIssue[] {
  const issues: FilterIssue[] = [];
  check(filter, '', issues, options);
  return issues;
}
