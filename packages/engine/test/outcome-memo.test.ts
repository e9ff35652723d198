import { describe, expect, it } from 'vitest';
import { compileSnapshot, type EvaluationContext, type FlagDefinition } from '../src/index.js';
import { fieldsRead, MAX_MEMO_KEYS, OutcomeMemo } from '../src/outcome-memo.js';
import { newScope, type Scope } from '../src/targeting/scope.js';
import { ctx } from './helpers.js';

const rollout = (attribute: string) =>
  ({ type: 'rolloutPercentage', partialRolloutAttribute: attribute, partialRolloutThreshold: 50_000 }) as const;

describe('fieldsRead', () => {
  const flag = (rules: FlagDefinition['rules'], variants: NonNullable<FlagDefinition['config']>['variants'] = []): FlagDefinition => ({
    key: 'f',
    targetingVersion: 1,
    rules,
    config: { version: 1, variants },
  });

  it('lists every field of rules and variants, through groups and negations, sorted and once each', () => {
    const definition = flag(
      [
        { filter: { type: 'group', operator: 'and', filters: [ctx('user.plan', 'IS', ['pro']), { type: 'negation', filter: ctx('company.tier', 'IS', ['x']) }] } },
        { filter: rollout('user.id') },
      ],
      [{ key: 'v', payload: null, filter: ctx('user.plan', 'ANY_OF', ['a']) }],
    );
    expect(fieldsRead(definition)).toEqual(['company.tier', 'user.id', 'user.plan']);
  });

  it('is empty for constants, no rules and malformed nodes, which read nothing', () => {
    expect(fieldsRead(flag([]))).toEqual([]);
    expect(fieldsRead(flag([{ filter: { type: 'constant', value: true } }, { filter: null as never }, { filter: { type: 'other' } as never }]))).toEqual([]);
  });

  it('is null when an operator reads the clock ("N days ago")', () => {
    expect(fieldsRead(flag([{ filter: ctx('user.signedUp', 'AFTER', ['3']) }]))).toBeNull();
    expect(fieldsRead(flag([], [{ key: 'v', payload: null, filter: ctx('user.signedUp', 'BEFORE', ['3']) }]))).toBeNull();
    expect(fieldsRead(flag([{ filter: ctx('user.signedUp', 'DATE_AFTER', ['2024-01-01']) }]))).toEqual(['user.signedUp']);
  });
});

describe('OutcomeMemo', () => {
  /** The code the test member gives: a function of `user.plan` and `user.tier` as the accessors read them. */
  const code = (user: Record<string, unknown>) => `${String(user['plan'])}|${String(user['tier'])}`.length * 2 + (user['plan'] === 'pro' ? 1 : 0);

  /** A member giving `code`, counting its evaluations. */
  function member() {
    const calls = { count: 0 };
    const outcome = (scope: Scope) => {
      calls.count++;
      return code((scope.context as { user?: Record<string, unknown> }).user ?? {});
    };
    return { calls, member: { outcome } };
  }

  it('evaluates a combination of values once, then copies its codes', () => {
    const { calls, member: m } = member();
    const memo = new OutcomeMemo(['user.plan', 'user.tier'], Int32Array.from([1]));
    const out = new Int32Array(2);
    for (let round = 0; round < 3; round++) {
      for (const plan of ['pro', 'free']) {
        memo.fill(newScope({ user: { plan, tier: 'a' } }), [m, m], out);
        expect(out[1]).toBe(code({ plan, tier: 'a' }));
      }
    }
    expect(calls.count).toBe(2);
  });

  it('keeps combinations apart that a plain concatenation would confuse, and missing apart from any text', () => {
    const { member: m } = member();
    const memo = new OutcomeMemo(['user.plan', 'user.tier'], Int32Array.from([0]));
    const out = new Int32Array(1);
    const codes = (user: Record<string, unknown>) => {
      memo.fill(newScope({ user }), [m], out);
      return out[0];
    };
    // `1:ab` + `` and `1:a` + `b` would both concatenate to "1:ab".
    for (const user of [{ plan: '1:ab', tier: '' }, { plan: '1:a', tier: 'b' }, { tier: 'x' }, { plan: '-', tier: 'x' }]) {
      expect(codes(user)).toBe(code(user));
    }
  });

  it('evaluates every time for an array value, and gives up past MAX_MEMO_KEYS values', () => {
    const { calls, member: m } = member();
    const memo = new OutcomeMemo(['user.plan'], Int32Array.from([0]));
    const out = new Int32Array(1);
    memo.fill(newScope({ user: { plan: ['pro'] } }), [m], out);
    memo.fill(newScope({ user: { plan: ['pro'] } }), [m], out);
    expect(calls.count).toBe(2);
    for (let i = 0; i <= MAX_MEMO_KEYS; i++) memo.fill(newScope({ user: { plan: `p${i}` } }), [m], out);
    const before = calls.count;
    memo.fill(newScope({ user: { plan: 'p0' } }), [m], out);
    expect(calls.count).toBe(before + 1);
  });
});

describe('CompiledSnapshot.outcomes with memos', () => {
  const flags: FlagDefinition[] = [
    { key: 'plan', targetingVersion: 1, rules: [{ filter: ctx('user.plan', 'ANY_OF', ['pro', 'team']) }] },
    { key: 'plan-2', targetingVersion: 1, rules: [{ filter: ctx('user.plan', 'IS', ['1']) }] },
    { key: 'both', targetingVersion: 1, rules: [{ filter: ctx('user.plan', 'IS', ['pro']) }, { filter: ctx('company.tier', 'IS', ['big']) }] },
    { key: 'half', targetingVersion: 1, rules: [{ filter: rollout('user.id') }] },
    { key: 'recent', targetingVersion: 1, rules: [{ filter: ctx('user.seen', 'AFTER', ['2']) }] },
  ];
  const contexts: EvaluationContext[] = [{}, { user: {} }];
  for (let i = 0; i < 600; i++) {
    contexts.push({
      user: { id: `u${i}`, plan: [`pro`, 'team', 'free', 1, '1', null, ['pro']][i % 7], seen: new Date(Date.now() - (i % 5) * 86_400_000).toISOString() },
      ...(i % 3 ? { company: { tier: i % 2 ? 'big' : 'small' } } : {}),
    });
  }

  it('gives every context the codes a snapshot that has seen nothing else gives it', () => {
    const warm = compileSnapshot({ flagStateVersion: 1, flags });
    const out = new Int32Array(flags.length);
    const fresh = new Int32Array(flags.length);
    // Twice over: the second pass is answered from the memos (except the user-id one, dropped past its limit).
    for (const context of [...contexts, ...contexts]) {
      warm.outcomes(context, out);
      compileSnapshot({ flagStateVersion: 1, flags }).outcomes(context, fresh);
      expect([...out], JSON.stringify(context)).toEqual([...fresh]);
    }
  });
});
