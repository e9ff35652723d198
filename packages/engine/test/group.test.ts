import { describe, expect, it } from 'vitest';
import type { Filter } from '../src/index.js';
import { ctx, evaluateRules, matches } from './helpers.js';

const TRUE: Filter = { type: 'constant', value: true };
const FALSE: Filter = { type: 'constant', value: false };
const and = (...filters: Filter[]): Filter => ({ type: 'group', operator: 'and', filters });
const or = (...filters: Filter[]): Filter => ({ type: 'group', operator: 'or', filters });
const not = (filter: Filter): Filter => ({ type: 'negation', filter });

describe('constant, group, negation', () => {
  it('constant is its value', () => {
    expect(matches(TRUE, {})).toBe(true);
    expect(matches(FALSE, {})).toBe(false);
  });

  it('an empty and-group is true, an empty or-group false', () => {
    expect(matches(and(), {})).toBe(true);
    expect(matches(or(), {})).toBe(false);
  });

  it('combines children with and / or at every size', () => {
    for (const n of [1, 2, 3, 5]) {
      const allTrue = Array.from({ length: n }, () => TRUE);
      const oneFalse = [...allTrue.slice(1), FALSE];
      expect(matches(and(...allTrue), {})).toBe(true);
      expect(matches(and(...oneFalse), {})).toBe(false);
      expect(matches(or(...oneFalse), {})).toBe(n > 1);
      expect(matches(or(...oneFalse.map(() => FALSE)), {})).toBe(false);
    }
  });

  it('negation inverts, nested at any depth', () => {
    expect(matches(not(FALSE), {})).toBe(true);
    expect(matches(not(not(TRUE)), {})).toBe(true);
    expect(matches(and(not(FALSE), or(FALSE, not(and(TRUE, FALSE)))), {})).toBe(true);
  });

  it('short-circuits: fields after the deciding filter are not reported missing', () => {
    const andResult = evaluateRules([and(FALSE, ctx('user.a', 'IS', ['x']))], {});
    expect(andResult.missingContextFields).toEqual([]);
    const orResult = evaluateRules([or(TRUE, ctx('user.a', 'IS', ['x']))], {});
    expect(orResult.missingContextFields).toEqual([]);
    const is = (field: string) => ctx(field, 'IS', ['x']);
    const evaluated = evaluateRules([or(is('user.a'), is('user.b'), TRUE, is('user.c'))], {});
    expect(evaluated.missingContextFields).toEqual(['user.a', 'user.b']);
  });

  it('every rule is evaluated, in order, and missing fields keep first-seen order', () => {
    const rules = [ctx('user.b', 'IS', ['x']), TRUE, ctx('user.a', 'IS', ['x']), ctx('user.b', 'LT', ['1'])];
    const result = evaluateRules(rules, {});
    expect(result.ruleEvaluationResults).toEqual([false, true, false, false]);
    expect(result.missingContextFields).toEqual(['user.b', 'user.a']);
  });

  it('an unknown filter type or operator never matches', () => {
    expect(matches({ type: 'segment', id: 'x' } as unknown as Filter, {})).toBe(false);
    expect(matches(not({ type: 'segment' } as unknown as Filter), {})).toBe(true);
    expect(matches(ctx('user.id', 'STARTS_WITH', ['a']), { user: { id: 'abc' } })).toBe(false);
  });

  it('an operator other than "and" behaves as "or", as in the library', () => {
    expect(matches({ type: 'group', operator: 'xor', filters: [TRUE, FALSE] } as unknown as Filter, {})).toBe(true);
  });
});
