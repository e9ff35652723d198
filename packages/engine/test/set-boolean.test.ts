import { describe, expect, it } from 'vitest';
import { ctx, evaluateRules, matches } from './helpers.js';

describe('SET / NOT_SET', () => {
  it('a present non-empty value is set', () => {
    expect(matches(ctx('user.email', 'SET'), { user: { email: 'a@b.c' } })).toBe(true);
    expect(matches(ctx('user.email', 'NOT_SET'), { user: { email: 'a@b.c' } })).toBe(false);
    expect(matches(ctx('user.count', 'SET'), { user: { count: 0 } })).toBe(true);
    expect(matches(ctx('user.beta', 'SET'), { user: { beta: false } })).toBe(true);
  });

  it('"", null and {} are not set', () => {
    for (const value of ['', null, {}]) {
      expect(matches(ctx('user.email', 'SET'), { user: { email: value } })).toBe(false);
      expect(matches(ctx('user.email', 'NOT_SET'), { user: { email: value } })).toBe(true);
    }
  });

  it('a missing field counts as empty and is not reported missing', () => {
    const set = evaluateRules([ctx('user.email', 'SET')], { user: {} });
    expect(set.isEnabled).toBe(false);
    expect(set.missingContextFields).toEqual([]);
    expect(set.evaluationErrors).toEqual([]);
    const notSet = evaluateRules([ctx('user.email', 'NOT_SET')], {});
    expect(notSet.isEnabled).toBe(true);
    expect(notSet.missingContextFields).toEqual([]);
  });
});

describe('IS_TRUE / IS_FALSE', () => {
  it('compare the flat value with "true" / "false"', () => {
    expect(matches(ctx('user.beta', 'IS_TRUE'), { user: { beta: true } })).toBe(true);
    expect(matches(ctx('user.beta', 'IS_TRUE'), { user: { beta: 'true' } })).toBe(true);
    expect(matches(ctx('user.beta', 'IS_TRUE'), { user: { beta: 'TRUE' } })).toBe(false);
    expect(matches(ctx('user.beta', 'IS_TRUE'), { user: { beta: 1 } })).toBe(false);
    expect(matches(ctx('user.beta', 'IS_FALSE'), { user: { beta: false } })).toBe(true);
    expect(matches(ctx('user.beta', 'IS_FALSE'), { user: { beta: null } })).toBe(false);
    expect(matches(ctx('user.beta', 'IS_FALSE'), { user: { beta: 0 } })).toBe(false);
  });

  it('a missing field is reported', () => {
    const result = evaluateRules([ctx('user.beta', 'IS_TRUE')], { user: {} });
    expect(result.isEnabled).toBe(false);
    expect(result.missingContextFields).toEqual(['user.beta']);
  });
});
