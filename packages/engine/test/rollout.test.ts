import { hashInt } from '@reflag/flag-evaluation';
import { describe, expect, it } from 'vitest';
import { compileSnapshot, rolloutHash, type Filter } from '../src/index.js';
import { evaluateRules, matches } from './helpers.js';

const rollout = (threshold: number, attribute = 'company.id', key?: string): Filter => ({
  type: 'rolloutPercentage',
  partialRolloutAttribute: attribute,
  partialRolloutThreshold: threshold,
  ...(key === undefined ? {} : { key }),
});

describe('rolloutHash', () => {
  it.each([
    ['EEuoT8KShb', 38026],
    ['my-flag.company-1', 38689],
    ['my-flag.user-42', 17906],
    ['huddles.acme-inc', 31838],
    ['new-checkout.123', 70515],
    ['k.3579681', 100000],
  ])('%s → %i', (input, expected) => {
    expect(rolloutHash(input)).toBe(expected);
  });

  it('matches the library on non-ASCII input, lone surrogates included (js-sha256 encodes them its own way)', () => {
    for (const input of ['é', '日本.x', 'a😀b', 'x.\ud800', 'x.\udc00a', '\ud83d', '\ud800\ud800', '', 'k.'.repeat(40)]) {
      expect(rolloutHash(input), JSON.stringify(input)).toBe(hashInt(input));
    }
  });

  it('stays within 0..100000', () => {
    for (let i = 0; i < 2000; i++) {
      const hash = rolloutHash(`flag.${i}`);
      expect(hash).toBeGreaterThanOrEqual(0);
      expect(hash).toBeLessThanOrEqual(100000);
      expect(hash).toBe(hashInt(`flag.${i}`));
    }
  });
});

describe('rolloutPercentage filter', () => {
  it('hashes `key.value` with the flag key when the filter has none', () => {
    // my-flag.company-1 → 38689
    expect(matches(rollout(38690), { company: { id: 'company-1' } })).toBe(true);
    expect(matches(rollout(38689), { company: { id: 'company-1' } })).toBe(false);
  });

  it('uses the filter key when present', () => {
    // huddles.acme-inc → 31838
    expect(matches(rollout(31839, 'company.id', 'huddles'), { company: { id: 'acme-inc' } })).toBe(true);
    expect(matches(rollout(31838, 'company.id', 'huddles'), { company: { id: 'acme-inc' } })).toBe(false);
  });

  it('is strict: a hash of 100000 does not pass a threshold of 100000', () => {
    expect(matches(rollout(100000, 'user.id', 'k'), { user: { id: 3579681 } })).toBe(false);
    expect(matches(rollout(100000, 'user.id', 'k'), { user: { id: 3579680 } })).toBe(true);
  });

  it('threshold 0 matches nobody', () => {
    expect(matches(rollout(0), { company: { id: 'company-1' } })).toBe(false);
  });

  it('accepts any context field as the attribute; numbers are stringified', () => {
    // new-checkout.123 → 70515
    expect(matches(rollout(70516, 'other.account', 'new-checkout'), { other: { account: 123 } })).toBe(true);
    expect(matches(rollout(70515, 'other.account', 'new-checkout'), { other: { account: 123 } })).toBe(false);
  });

  it('a null attribute is present and hashes `key.`', () => {
    const hash = rolloutHash('my-flag.');
    expect(matches(rollout(hash + 1), { company: { id: null } })).toBe(true);
    expect(matches(rollout(hash), { company: { id: null } })).toBe(false);
  });

  it('a missing attribute is reported, even when the threshold decides alone', () => {
    for (const threshold of [0, 50000, 100000]) {
      const result = evaluateRules([rollout(threshold)], { user: { id: 'u' } });
      expect(result.isEnabled).toBe(false);
      expect(result.missingContextFields).toEqual(['company.id']);
      expect(result.evaluationErrors).toEqual([
        expect.objectContaining({ code: 'MISSING_CONTEXT_FIELD', field: 'company.id', operator: 'rolloutPercentage' }),
      ]);
    }
  });

  it('an array attribute does not roll out: UNSUPPORTED_ARRAY_OPERATOR', () => {
    const result = evaluateRules([rollout(100000, 'user.teams')], { user: { teams: ['a'] } });
    expect(result.isEnabled).toBe(false);
    expect(result.missingContextFields).toEqual([]);
    expect(result.evaluationErrors).toEqual([
      expect.objectContaining({ code: 'UNSUPPORTED_ARRAY_OPERATOR', field: 'user.teams', operator: 'rolloutPercentage' }),
    ]);
  });
});

describe('rollout evaluation reused across contexts', () => {
  it('gives each context its own answer, whether its id repeats or not', () => {
    const filter = rollout(50_000, 'user.id');
    const snapshot = compileSnapshot({
      flagStateVersion: 1,
      flags: [{ key: 'my-flag', targetingVersion: 1, rules: [{ filter }] }],
    });
    // Same-length ids, repeated and interleaved, on both sides of the threshold.
    const ids = Array.from({ length: 60 }, (_, i) => `u${(i * 7) % 20}`).concat(['a', 'a', 'b', 'user-42', 'user-42']);
    expect(new Set(ids.map((id) => hashInt(`my-flag.${id}`) < 50_000)).size).toBe(2);
    for (let round = 0; round < 3; round++) {
      for (const id of ids) {
        const expected = hashInt(`my-flag.${id}`) < 50_000;
        expect(snapshot.evaluate('my-flag', { user: { id } })!.isEnabled, id).toBe(expected);
        // A number with the same digits is the same flat value.
        expect(snapshot.evaluate('my-flag', { user: { id: 42 } })!.isEnabled).toBe(hashInt('my-flag.42') < 50_000);
      }
    }
  });
});
