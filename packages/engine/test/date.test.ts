import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileSnapshot } from '../src/index.js';
import { ctx, matches } from './helpers.js';

const DAY = 86_400_000;
const at = (field: string, value: unknown) => ({ user: { [field]: value } });

describe('AFTER / BEFORE (relative: N days ago)', () => {
  afterEach(() => void vi.useRealTimers());

  it('AFTER matches dates later than N days ago, BEFORE earlier ones', () => {
    const now = Date.now();
    const twoDaysAgo = new Date(now - 2 * DAY).toISOString();
    const tenDaysAgo = new Date(now - 10 * DAY).toISOString();
    expect(matches(ctx('user.signup', 'AFTER', ['7']), at('signup', twoDaysAgo))).toBe(true);
    expect(matches(ctx('user.signup', 'AFTER', ['7']), at('signup', tenDaysAgo))).toBe(false);
    expect(matches(ctx('user.signup', 'BEFORE', ['7']), at('signup', tenDaysAgo))).toBe(true);
    expect(matches(ctx('user.signup', 'BEFORE', ['7']), at('signup', twoDaysAgo))).toBe(false);
  });

  it('moves the boundary with the clock, without recompiling', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2024-03-10T12:00:00Z'));
    const snapshot = compileSnapshot({
      flagStateVersion: 1,
      flags: [{ key: 'f', targetingVersion: 1, rules: [{ filter: ctx('user.signup', 'AFTER', ['1']) }] }],
    });
    const context = at('signup', '2024-03-09T18:00:00Z');
    expect(snapshot.evaluate('f', context)!.isEnabled).toBe(true);
    vi.setSystemTime(new Date('2024-03-11T12:00:00Z'));
    expect(snapshot.evaluate('f', context)!.isEnabled).toBe(false);
  });

  it('is false for unparsable dates or day counts', () => {
    expect(matches(ctx('user.signup', 'AFTER', ['7']), at('signup', 'not a date'))).toBe(false);
    expect(matches(ctx('user.signup', 'BEFORE', ['7']), at('signup', 'not a date'))).toBe(false);
    expect(matches(ctx('user.signup', 'AFTER', ['seven']), at('signup', new Date().toISOString()))).toBe(false);
  });

  it('numbers flatten to strings first: 2020 is the year 2020, not a timestamp', () => {
    // "2020" parses as 2020-01-01, so it is before "7 days ago" — the library's outcome.
    expect(matches(ctx('user.signup', 'BEFORE', ['7']), at('signup', 2020))).toBe(true);
  });
});

describe('DATE_AFTER / DATE_BEFORE (absolute, inclusive)', () => {
  it('compares with the given date, boundaries included', () => {
    const filter = (operator: string) => ctx('company.createdAt', operator, ['2024-01-15T00:00:00Z']);
    const company = (createdAt: string) => ({ company: { createdAt } });
    expect(matches(filter('DATE_AFTER'), company('2024-01-15T00:00:00Z'))).toBe(true);
    expect(matches(filter('DATE_AFTER'), company('2024-02-01'))).toBe(true);
    expect(matches(filter('DATE_AFTER'), company('2023-12-31'))).toBe(false);
    expect(matches(filter('DATE_BEFORE'), company('2024-01-15T00:00:00Z'))).toBe(true);
    expect(matches(filter('DATE_BEFORE'), company('2023-12-31'))).toBe(true);
    expect(matches(filter('DATE_BEFORE'), company('2024-02-01'))).toBe(false);
  });

  it('parses leniently, as new Date() does', () => {
    const filter = ctx('company.createdAt', 'DATE_AFTER', ['Jan 1 2024']);
    expect(matches(filter, { company: { createdAt: '2024-06-01' } })).toBe(true);
  });

  it('is false when either date is invalid', () => {
    const company = (createdAt: string) => ({ company: { createdAt } });
    expect(matches(ctx('company.createdAt', 'DATE_AFTER', ['2024-01-01']), company('soon'))).toBe(false);
    expect(matches(ctx('company.createdAt', 'DATE_BEFORE', ['whenever']), company('2024-01-01'))).toBe(false);
  });
});
