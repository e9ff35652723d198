import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { FilterSchema, FlagDefinitionSchema, validateFilter, type Filter } from '../src/index.js';
import { ctx } from './helpers.js';

describe('validateFilter', () => {
  it('accepts valid filters of every kind', () => {
    const filter: Filter = {
      type: 'group',
      operator: 'and',
      filters: [
        ctx('company.plan', 'IS', ['enterprise']),
        ctx('user.roles', 'ANY_OF', ['a', 'b']),
        ctx('user.email', 'SET'),
        ctx('user.profile.roles', 'CONTAINS', ['dev']),
        { type: 'negation', filter: ctx('other.beta', 'IS_TRUE') },
        { type: 'rolloutPercentage', key: 'f', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 100000 },
        { type: 'rolloutPercentage', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 0 },
        { type: 'constant', value: true },
        { type: 'group', operator: 'or', filters: [] },
      ],
    };
    expect(validateFilter(filter)).toEqual([]);
  });

  it.each([
    ['SET', ['x'], 'SET takes no values'],
    ['NOT_SET', ['x'], 'NOT_SET takes no values'],
    ['IS_TRUE', ['x'], 'IS_TRUE takes no values'],
    ['IS_FALSE', ['x', 'y'], 'IS_FALSE takes no values'],
    ['ANY_OF', [], 'ANY_OF takes at least one value'],
    ['NOT_ANY_OF', [], 'NOT_ANY_OF takes at least one value'],
    ['IS', [], 'IS takes exactly one value'],
    ['GT', ['1', '2'], 'GT takes exactly one value'],
    ['DATE_AFTER', [], 'DATE_AFTER takes exactly one value'],
  ])('checks arity: %s with %j', (operator, values, message) => {
    expect(validateFilter(ctx('user.x', operator, values))).toEqual([{ path: 'values', message }]);
  });

  it('holds a rollout key to the flag key, or to none for a segment', () => {
    const rollout = (key?: string): Filter => ({ type: 'rolloutPercentage', ...(key === undefined ? {} : { key }), partialRolloutAttribute: 'user.id', partialRolloutThreshold: 5 });
    const inGroup = (key?: string): Filter => ({ type: 'negation', filter: rollout(key) });
    expect(validateFilter(inGroup('other'))).toEqual([]);
    expect(validateFilter(inGroup('f'), { rolloutKey: 'f' })).toEqual([]);
    expect(validateFilter(inGroup(), { rolloutKey: 'f' })).toEqual([]);
    expect(validateFilter(inGroup('other'), { rolloutKey: 'f' })).toEqual([
      { path: 'filter.key', message: 'must be the flag key "f" when present: a rollout hashes with its flag\'s key' },
    ]);
    expect(validateFilter(inGroup(), { rolloutKey: null })).toEqual([]);
    expect(validateFilter(inGroup('f'), { rolloutKey: null }).map((i) => i.path)).toEqual(['filter.key']);
  });

  it('checks the threshold range, relative to the filter', () => {
    const filter: Filter = {
      type: 'negation',
      filter: {
        type: 'group',
        operator: 'or',
        filters: [{ type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 100001 }],
      },
    };
    expect(validateFilter(filter)).toEqual([
      { path: 'filter.filters.0.partialRolloutThreshold', message: expect.stringContaining('0 to 100000') },
    ]);
    const fractional: Filter = { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 0.5 };
    expect(validateFilter(fractional)).toHaveLength(1);
  });

  it('checks field paths: a context root and at most one level of nesting', () => {
    const fieldIssue = (text: string) => [{ path: 'field', message: expect.stringContaining(text) }];
    expect(validateFilter(ctx('user.profile.roles.x', 'SET'))).toEqual(fieldIssue('too deep'));
    expect(validateFilter(ctx('plan', 'SET'))).toEqual(fieldIssue('user., company. or other.'));
    expect(validateFilter(ctx('user', 'SET'))).toEqual(fieldIssue('user., company. or other.'));
    expect(validateFilter(ctx('user..id', 'SET'))).toEqual(fieldIssue('empty path segment'));
    const rollout = { type: 'rolloutPercentage', partialRolloutAttribute: 'a.b.c.d', partialRolloutThreshold: 1 } as Filter;
    expect(validateFilter(rollout)).toEqual([{ path: 'partialRolloutAttribute', message: expect.any(String) }]);
  });

  it('reports every problem, with dotted paths, and never throws on garbage', () => {
    const filter = {
      type: 'group',
      operator: 'xor',
      filters: [
        null,
        { type: 'context', field: 'user.a', operator: 'NOPE', values: [1] },
        { type: 'constant', value: 'yes' },
        { type: 'mystery' },
      ],
    } as unknown as Filter;
    expect(validateFilter(filter).map((issue) => issue.path)).toEqual([
      'operator',
      'filters.0',
      'filters.1.values.0',
      'filters.1.operator',
      'filters.2.value',
      'filters.3.type',
    ]);
    expect(validateFilter(undefined as unknown as Filter)).toEqual([{ path: '', message: 'must be a filter object' }]);
  });
});

describe('TypeBox schemas', () => {
  it('FilterSchema accepts the five kinds, nested', () => {
    const filter: Filter = {
      type: 'group',
      operator: 'or',
      filters: [
        { type: 'negation', filter: ctx('user.id', 'IS', ['1']) },
        { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50000 },
        { type: 'constant', value: false },
      ],
    };
    expect(Value.Check(FilterSchema, filter)).toBe(true);
  });

  it('FilterSchema rejects unknown operators, types and thresholds out of range', () => {
    expect(Value.Check(FilterSchema, { type: 'context', field: 'user.id', operator: 'LIKE', values: [] })).toBe(false);
    expect(Value.Check(FilterSchema, { type: 'segment' })).toBe(false);
    const rollout = { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 100001 };
    expect(Value.Check(FilterSchema, rollout)).toBe(false);
    expect(Value.Check(FilterSchema, { type: 'negation', filter: { type: 'constant', value: 1 } })).toBe(false);
  });

  it('FlagDefinitionSchema embeds the recursive filter in rules and variants', () => {
    const flag = {
      key: 'f',
      targetingVersion: 1,
      rules: [{ filter: { type: 'constant', value: true } }],
      config: {
        version: 1,
        variants: [{ key: 'v', payload: { any: 'thing' }, filter: { type: 'group', operator: 'and', filters: [] } }],
      },
    };
    expect(Value.Check(FlagDefinitionSchema, flag)).toBe(true);
    const groupWithoutFilters = { ...flag, rules: [{ filter: { type: 'group', operator: 'and' } }] };
    expect(Value.Check(FlagDefinitionSchema, groupWithoutFilters)).toBe(false);
  });
});
