import { describe, expect, it } from 'vitest';
import type { Filter } from '../src/index.js';
import { ctx, evaluateRules, matches } from './helpers.js';

const roles = (value: unknown[]) => ({ user: { roles: value } });

describe('array attributes (runtime spec rules)', () => {
  it('IS: exactly one item, equal to the value', () => {
    expect(matches(ctx('user.roles', 'IS', ['admin']), roles(['admin']))).toBe(true);
    expect(matches(ctx('user.roles', 'IS', ['admin']), roles(['admin', 'dev']))).toBe(false);
    expect(matches(ctx('user.roles', 'IS', ['admin']), roles([]))).toBe(false);
    expect(matches(ctx('user.roles', 'IS', ['admin']), roles(['dev']))).toBe(false);
    expect(matches(ctx('user.roles', 'IS', ['']), roles([]))).toBe(false);
  });

  it('IS_NOT: more than one item, empty, or the only item differs', () => {
    expect(matches(ctx('user.roles', 'IS_NOT', ['admin']), roles(['admin', 'dev']))).toBe(true);
    expect(matches(ctx('user.roles', 'IS_NOT', ['admin']), roles([]))).toBe(true);
    expect(matches(ctx('user.roles', 'IS_NOT', ['admin']), roles(['dev']))).toBe(true);
    expect(matches(ctx('user.roles', 'IS_NOT', ['admin']), roles(['admin']))).toBe(false);
  });

  it('CONTAINS / NOT_CONTAINS: whole-item membership, case-sensitive', () => {
    expect(matches(ctx('user.roles', 'CONTAINS', ['dev']), roles(['admin', 'dev']))).toBe(true);
    expect(matches(ctx('user.roles', 'CONTAINS', ['de']), roles(['admin', 'dev']))).toBe(false);
    expect(matches(ctx('user.roles', 'CONTAINS', ['DEV']), roles(['admin', 'dev']))).toBe(false);
    expect(matches(ctx('user.roles', 'NOT_CONTAINS', ['DEV']), roles(['admin', 'dev']))).toBe(true);
    expect(matches(ctx('user.roles', 'NOT_CONTAINS', ['dev']), roles(['dev']))).toBe(false);
    expect(matches(ctx('user.roles', 'NOT_CONTAINS', ['dev']), roles([]))).toBe(true);
  });

  it('ANY_OF: at least one listed value is included; NOT_ANY_OF: none is', () => {
    expect(matches(ctx('user.roles', 'ANY_OF', ['owner', 'dev']), roles(['admin', 'dev']))).toBe(true);
    expect(matches(ctx('user.roles', 'ANY_OF', ['owner']), roles(['admin', 'dev']))).toBe(false);
    expect(matches(ctx('user.roles', 'ANY_OF', ['owner']), roles([]))).toBe(false);
    expect(matches(ctx('user.roles', 'NOT_ANY_OF', ['owner']), roles(['admin', 'dev']))).toBe(true);
    expect(matches(ctx('user.roles', 'NOT_ANY_OF', ['owner', 'dev']), roles(['admin', 'dev']))).toBe(false);
    expect(matches(ctx('user.roles', 'NOT_ANY_OF', ['owner']), roles([]))).toBe(true);
  });

  it('SET: at least one item; NOT_SET: empty', () => {
    expect(matches(ctx('user.roles', 'SET'), roles(['a']))).toBe(true);
    expect(matches(ctx('user.roles', 'SET'), roles([]))).toBe(false);
    expect(matches(ctx('user.roles', 'NOT_SET'), roles([]))).toBe(true);
    expect(matches(ctx('user.roles', 'NOT_SET'), roles(['a']))).toBe(false);
  });

  it('compares items as the library compares scalars: numbers and booleans stringified, null as ""', () => {
    expect(matches(ctx('user.teams', 'CONTAINS', ['42']), { user: { teams: [7, 42] } })).toBe(true);
    expect(matches(ctx('user.flags', 'IS', ['true']), { user: { flags: [true] } })).toBe(true);
    expect(matches(ctx('user.teams', 'CONTAINS', ['']), { user: { teams: [null] } })).toBe(true);
  });

  it('reads arrays one level down too (user.profile.roles)', () => {
    expect(matches(ctx('user.profile.roles', 'CONTAINS', ['dev']), { user: { profile: { roles: ['dev'] } } })).toBe(true);
  });

  it('an item path like user.roles.0 reads the item, as the library does', () => {
    expect(matches(ctx('user.roles.0', 'IS', ['admin']), roles(['admin', 'dev']))).toBe(true);
    expect(matches(ctx('user.roles.1', 'CONTAINS', ['DE']), roles(['admin', 'dev']))).toBe(true);
    const result = evaluateRules([ctx('user.roles.2', 'IS', ['x'])], roles(['admin', 'dev']));
    expect(result.missingContextFields).toEqual(['user.roles.2']);
  });

  it.each(['GT', 'LT', 'AFTER', 'BEFORE', 'DATE_AFTER', 'DATE_BEFORE', 'IS_TRUE', 'IS_FALSE'])(
    '%s on an array: no match, UNSUPPORTED_ARRAY_OPERATOR, nothing missing',
    (operator) => {
      const values = operator.startsWith('IS_') ? [] : ['1'];
      const rules: Filter[] = [ctx('user.roles', operator, values), { type: 'constant', value: true }];
      const result = evaluateRules(rules, roles(['1', '2']));
      expect(result.ruleEvaluationResults).toEqual([false, true]);
      expect(result.isEnabled).toBe(true);
      expect(result.missingContextFields).toEqual([]);
      expect(result.evaluationErrors).toEqual([
        {
          code: 'UNSUPPORTED_ARRAY_OPERATOR',
          field: 'user.roles',
          operator,
          message: expect.stringContaining('user.roles'),
        },
      ]);
    },
  );

  it('the affected rule does not match, even under a negation', () => {
    const negated: Filter = { type: 'negation', filter: ctx('user.roles', 'GT', ['1']) };
    const either: Filter = {
      type: 'group',
      operator: 'or',
      filters: [ctx('user.roles', 'GT', ['1']), { type: 'constant', value: true }],
    };
    const result = evaluateRules([negated, either], roles(['5']));
    expect(result.ruleEvaluationResults).toEqual([false, false]);
    expect(result.evaluationErrors).toHaveLength(1); // same field and operator: reported once
  });

  it('other rules are unaffected by an array error in one rule', () => {
    const result = evaluateRules([ctx('user.roles', 'LT', ['1']), ctx('user.roles', 'CONTAINS', ['a'])], roles(['a']));
    expect(result.ruleEvaluationResults).toEqual([false, true]);
  });
});

describe('MISSING_CONTEXT_FIELD', () => {
  it('the filter is false, the field is listed once, other rules can still match', () => {
    const result = evaluateRules(
      [ctx('company.plan', 'IS', ['x']), ctx('company.plan', 'IS_NOT', ['x']), ctx('user.id', 'IS', ['u'])],
      { user: { id: 'u' } },
    );
    expect(result.ruleEvaluationResults).toEqual([false, false, true]);
    expect(result.isEnabled).toBe(true);
    expect(result.missingContextFields).toEqual(['company.plan']);
    expect(result.evaluationErrors).toEqual([
      { code: 'MISSING_CONTEXT_FIELD', field: 'company.plan', operator: 'IS', message: expect.any(String) },
      { code: 'MISSING_CONTEXT_FIELD', field: 'company.plan', operator: 'IS_NOT', message: expect.any(String) },
    ]);
  });

  it('a negation over a missing field matches, as in the library', () => {
    const result = evaluateRules([{ type: 'negation', filter: ctx('company.plan', 'IS', ['x']) }], {});
    expect(result.isEnabled).toBe(true);
    expect(result.missingContextFields).toEqual(['company.plan']);
  });

  it('a non-empty object is missing; the library only sees its leaves', () => {
    const result = evaluateRules([ctx('user.profile', 'IS_NOT', ['x'])], { user: { profile: { plan: 'pro' } } });
    expect(result.isEnabled).toBe(false);
    expect(result.missingContextFields).toEqual(['user.profile']);
  });
});
