import type { ContextOperator, Filter } from '../../api/types.js';
import { OPERATORS } from './operators.js';

export type FilterKind = Filter['type'];

export const KIND_LABELS: Record<FilterKind, string> = {
  context: 'Attribute condition',
  rolloutPercentage: 'Percentage rollout',
  group: 'Group (all / any of)',
  negation: 'Not (negation)',
  constant: 'Everyone / no one',
};

export const ROLLOUT_MAX = 100_000;

/** A fresh filter of a kind; a negation or group wraps what was there, so switching kind loses nothing. */
export function filterOfKind(kind: FilterKind, previous?: Filter): Filter {
  switch (kind) {
    case 'context':
      return { type: 'context', field: 'user.id', operator: 'IS', values: [''] };
    case 'rolloutPercentage':
      return { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50_000 };
    case 'group':
      return { type: 'group', operator: 'and', filters: previous ? [previous] : [filterOfKind('context')] };
    case 'negation':
      return { type: 'negation', filter: previous ?? filterOfKind('context') };
    case 'constant':
      return { type: 'constant', value: true };
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}/;

function valueProblem(operator: ContextOperator, value: string): string | undefined {
  const { input } = OPERATORS[operator];
  if (input === 'number' && (value.trim() === '' || !Number.isFinite(Number(value)))) return 'Enter a number.';
  if (input === 'days' && !/^\d+$/.test(value.trim())) return 'Enter a whole number of days.';
  if (input === 'date' && !(DATE.test(value) && !Number.isNaN(Date.parse(value)))) return 'Enter a date (YYYY-MM-DD).';
  return undefined;
}

/**
 * What the editor can tell before saving, as `issues` (dotted path → messages) in the API's own paths, so that
 * local and server messages show in the same places.
 */
export function filterProblems(filter: Filter, path: string, out: Record<string, string[]> = {}): Record<string, string[]> {
  const add = (p: string, message: string) => (out[p] ??= []).push(message);
  switch (filter.type) {
    case 'context': {
      if (!filter.field.trim()) add(`${path}.field`, 'Name the attribute, e.g. user.id or company.plan.');
      const { arity } = OPERATORS[filter.operator];
      if (arity === 'many' && !filter.values.some((v) => v !== '')) add(`${path}.values`, 'Give at least one value.');
      filter.values.forEach((value, i) => {
        const problem = arity === 0 ? undefined : valueProblem(filter.operator, value);
        if (problem) add(`${path}.values.${i}`, problem);
      });
      break;
    }
    case 'rolloutPercentage':
      if (!filter.partialRolloutAttribute.trim()) add(`${path}.partialRolloutAttribute`, 'Name the attribute to split on.');
      break;
    case 'group':
      if (!filter.filters.length) add(`${path}.filters`, 'A group needs at least one condition.');
      filter.filters.forEach((f, i) => filterProblems(f, `${path}.filters.${i}`, out));
      break;
    case 'negation':
      filterProblems(filter.filter, `${path}.filter`, out);
      break;
    case 'constant':
      break;
  }
  return out;
}

/** One line in words, for lists and the history ("user.plan is any of pro, team AND 50% of user.id"). */
export function describeFilter(filter: Filter): string {
  switch (filter.type) {
    case 'context': {
      const op = OPERATORS[filter.operator];
      return `${filter.field} ${op.label}${op.arity === 0 ? '' : ` ${filter.values.join(', ')}`}`;
    }
    case 'rolloutPercentage':
      return `${formatPercent(filter.partialRolloutThreshold)}% of ${filter.partialRolloutAttribute}`;
    case 'group':
      return filter.filters.length
        ? `(${filter.filters.map(describeFilter).join(filter.operator === 'and' ? ' AND ' : ' OR ')})`
        : '(empty group)';
    case 'negation':
      return `NOT ${describeFilter(filter.filter)}`;
    case 'constant':
      return filter.value ? 'everyone' : 'no one';
  }
}

export const formatPercent = (threshold: number) => String(Math.round((threshold / ROLLOUT_MAX) * 100_000) / 1000);
