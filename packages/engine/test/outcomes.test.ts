import { describe, expect, it } from 'vitest';
import { compileSnapshot, type EvaluationContext, type FlagDefinition } from '../src/index.js';
import { ctx } from './helpers.js';

const rollout = (threshold: number) =>
  ({ type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: threshold }) as const;

/** One flag of each shape the body writer meets: constant, attribute, rollout, config, problems, too many rules. */
const flags: FlagDefinition[] = [
  { key: 'off', targetingVersion: 1, rules: [] },
  { key: 'on', targetingVersion: 2, rules: [{ filter: { type: 'constant', value: true } }] },
  {
    key: 'fixed-config',
    targetingVersion: 8,
    rules: [{ filter: { type: 'negation', filter: { type: 'group', operator: 'and', filters: [{ type: 'constant', value: false }] } } }],
    config: { version: 1, variants: [{ key: 'only', payload: [1], filter: { type: 'constant', value: true } }] },
  },
  { key: 'plan', targetingVersion: 3, rules: [{ filter: ctx('user.plan', 'ANY_OF', ['pro', 'team']) }, { filter: ctx('company.tier', 'IS', ['big']) }] },
  { key: 'half', targetingVersion: 4, rules: [{ filter: rollout(50_000) }] },
  {
    key: 'configured',
    targetingVersion: 5,
    rules: [{ filter: ctx('user.plan', 'IS', ['pro']) }],
    config: {
      version: 3,
      variants: [
        { key: 'gold', payload: { tone: 'gold' }, filter: ctx('company.tier', 'IS', ['big']) },
        { key: 'half', payload: 2, filter: rollout(50_000) },
        { key: 'rest', payload: null, filter: { type: 'constant', value: true } },
      ],
    },
  },
  { key: 'listed', targetingVersion: 6, rules: [{ filter: ctx('user.tags', 'GT', ['1']) }] },
  {
    key: 'many',
    targetingVersion: 7,
    rules: Array.from({ length: 25 }, (_, i) => ({ filter: ctx('user.plan', 'IS', [`p${i}`]) })),
  },
];

const compiled = compileSnapshot({ flagStateVersion: 1, flags });

function contexts(): EvaluationContext[] {
  const out: EvaluationContext[] = [{}, { user: {} }];
  for (let i = 0; i < 200; i++) {
    out.push({
      user: { id: `user-${i}`, plan: ['pro', 'team', 'free', 'p3'][i % 4], ...(i % 7 === 0 ? { tags: ['a'] } : {}) },
      ...(i % 3 === 0 ? {} : { company: { tier: i % 2 ? 'big' : 'small' } }),
    });
  }
  return out;
}

function codesOf(context: EvaluationContext): Int32Array {
  const out = new Int32Array(compiled.keys.length);
  compiled.outcomes(context, out);
  return out;
}

describe('CompiledSnapshot.outcomes', () => {
  it('gives equal evaluations for equal codes of a flag, and the enabled bit in bit 0', () => {
    const seen = compiled.keys.map(() => new Map<number, unknown>());
    let kept = 0;
    for (const context of contexts()) {
      const codes = codesOf(context);
      compiled.keys.forEach((key, i) => {
        const evaluation = compiled.evaluate(key, context)!;
        const code = codes[i]!;
        if (code < 0) return;
        expect(code & 1).toBe(evaluation.isEnabled ? 1 : 0);
        const earlier = seen[i]!.get(code);
        if (earlier === undefined) seen[i]!.set(code, evaluation);
        else {
          expect(evaluation).toEqual(earlier);
          kept++;
        }
      });
    }
    expect(kept).toBeGreaterThan(500);
    // Different evaluations got different codes: every flag with results shows more than one outcome.
    for (const key of ['plan', 'half', 'configured']) expect(seen[compiled.keys.indexOf(key)]!.size).toBeGreaterThan(1);
  });

  it('is -1 exactly when the evaluation reports a problem, or has more results than fit', () => {
    for (const context of contexts()) {
      const codes = codesOf(context);
      compiled.keys.forEach((key, i) => {
        const evaluation = compiled.evaluate(key, context)!;
        const problems =
          evaluation.evaluationErrors.length + evaluation.missingContextFields.length +
          (evaluation.config ? evaluation.config.evaluationErrors.length + evaluation.config.missingContextFields.length : 0);
        expect(codes[i]! < 0, `${key} for ${JSON.stringify(context)}`).toBe(problems > 0 || key === 'many');
      });
    }
  });

  it('answers a call made from inside another (a getter in the context) with a scope of its own', () => {
    const inner = new Int32Array(compiled.keys.length);
    const user = { id: 'user-1', plan: 'pro' };
    const context = {
      get user() {
        compiled.outcomes({ user: { id: 'user-2', plan: 'free' } }, inner);
        return user;
      },
    };
    const outer = codesOf(context);
    expect([...outer]).toEqual([...codesOf({ user })]);
    expect([...inner]).toEqual([...codesOf({ user: { id: 'user-2', plan: 'free' } })]);
  });

  it('gives context-free flags (constant rules and variants) one code for every context', () => {
    const fixed = ['off', 'on', 'fixed-config'].map((key) => compiled.keys.indexOf(key));
    const first = codesOf({});
    for (const context of contexts()) {
      const codes = codesOf(context);
      for (const i of fixed) expect(codes[i]).toBe(first[i]);
    }
    expect(first[compiled.keys.indexOf('fixed-config')]! & 1).toBe(1);
  });

  it('treats a null context as empty', () => {
    expect([...codesOf(null as never)]).toEqual([...codesOf({})]);
  });
});
