import { newEvaluator } from '@reflag/flag-evaluation';
import { describe, expect, it } from 'vitest';
import { compileSnapshot, type EnvironmentSnapshot, type FlagDefinition } from '../src/index.js';
import { ctx } from './helpers.js';

const plan = (value: string) => ctx('company.plan', 'IS', [value]);

const configured: FlagDefinition = {
  key: 'checkout',
  targetingVersion: 4,
  rules: [{ filter: plan('enterprise') }, { filter: ctx('user.beta', 'IS_TRUE') }],
  config: {
    version: 7,
    variants: [
      { key: 'gold', payload: { color: 'gold', limits: [1, 2] }, filter: plan('enterprise') },
      { key: 'beta', payload: 'beta-payload', filter: ctx('user.beta', 'IS_TRUE') },
      { key: 'default', payload: null, filter: { type: 'constant', value: true } },
    ],
  },
};

const snapshot: EnvironmentSnapshot = {
  flagStateVersion: 12,
  flags: [configured, { key: 'plain', targetingVersion: 1, rules: [] }],
};

describe('compileSnapshot', () => {
  const compiled = compileSnapshot(snapshot);

  it('exposes the version and the keys in snapshot order', () => {
    expect(compiled.flagStateVersion).toBe(12);
    expect(compiled.keys).toEqual(['checkout', 'plain']);
    expect(compiled.has('checkout')).toBe(true);
    expect(compiled.has('nope')).toBe(false);
    expect(compiled.evaluate('nope', {})).toBeUndefined();
  });

  it('returns the full evaluation of one flag', () => {
    expect(compiled.evaluate('checkout', { company: { plan: 'enterprise' }, user: { beta: true } })).toEqual({
      key: 'checkout',
      isEnabled: true,
      targetingVersion: 4,
      ruleEvaluationResults: [true, true],
      evaluationErrors: [],
      missingContextFields: [],
      config: {
        key: 'gold',
        version: 7,
        payload: { color: 'gold', limits: [1, 2] },
        ruleEvaluationResults: [true, true, true],
        evaluationErrors: [],
        missingContextFields: [],
      },
    });
  });

  it('a flag with no rules is off; without variants its config is undefined', () => {
    expect(compiled.evaluate('plain', {})).toEqual({
      key: 'plain',
      isEnabled: false,
      targetingVersion: 1,
      ruleEvaluationResults: [],
      evaluationErrors: [],
      missingContextFields: [],
      config: undefined,
    });
    const emptyConfig = compileSnapshot({
      flagStateVersion: 1,
      flags: [{ key: 'x', targetingVersion: 1, rules: [], config: { version: 1, variants: [] } }],
    });
    expect(emptyConfig.evaluate('x', {})!.config).toBeUndefined();
  });

  it('evaluateAll returns every flag, keyed by flag key', () => {
    const all = compiled.evaluateAll({ user: { beta: true } });
    expect(Object.keys(all)).toEqual(['checkout', 'plain']);
    expect(all.checkout!.isEnabled).toBe(true);
    expect(all.checkout!.ruleEvaluationResults).toEqual([false, true]);
    expect(all.checkout!.missingContextFields).toEqual(['company.plan']);
    expect(all.plain!.isEnabled).toBe(false);
  });

  it('keeps each flag’s problems to itself in evaluateAll', () => {
    const twoFlags = compileSnapshot({
      flagStateVersion: 1,
      flags: [
        { key: 'a', targetingVersion: 1, rules: [{ filter: ctx('user.x', 'IS', ['1']) }] },
        { key: 'b', targetingVersion: 1, rules: [{ filter: ctx('user.y', 'GT', ['1']) }] },
      ],
    });
    const all = twoFlags.evaluateAll({ user: { y: [1] } });
    expect(all.a!.missingContextFields).toEqual(['user.x']);
    expect(all.a!.evaluationErrors.map((e) => e.code)).toEqual(['MISSING_CONTEXT_FIELD']);
    expect(all.b!.missingContextFields).toEqual([]);
    expect(all.b!.evaluationErrors.map((e) => e.code)).toEqual(['UNSUPPORTED_ARRAY_OPERATOR']);
  });

  it('treats a null or absent context as empty', () => {
    expect(compiled.evaluate('checkout', null as never)!.missingContextFields).toEqual(['company.plan', 'user.beta']);
    expect(compiled.evaluateAll(undefined as never).plain!.isEnabled).toBe(false);
  });

  it('a later definition of the same key wins', () => {
    const twice = compileSnapshot({
      flagStateVersion: 1,
      flags: [
        { key: 'a', targetingVersion: 1, rules: [] },
        { key: 'a', targetingVersion: 2, rules: [{ filter: { type: 'constant', value: true } }] },
      ],
    });
    expect(twice.keys).toEqual(['a']);
    expect(twice.evaluate('a', {})).toMatchObject({ targetingVersion: 2, isEnabled: true });
  });

  it('a flag keyed "__proto__" is an ordinary entry of evaluateAll', () => {
    const odd = compileSnapshot({ flagStateVersion: 1, flags: [{ key: '__proto__', targetingVersion: 1, rules: [] }] });
    const all = odd.evaluateAll({});
    expect(Object.keys(all)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(all)).toBe(Object.prototype);
  });

  it('is not affected by later changes to the snapshot it compiled', () => {
    const definition: FlagDefinition = structuredClone(configured);
    const copy = compileSnapshot({ flagStateVersion: 1, flags: [definition] });
    (definition.rules[0]!.filter as { values: string[] }).values[0] = 'free';
    (definition.config!.variants[0]!.payload as { color: string }).color = 'red';
    const result = copy.evaluate('checkout', { company: { plan: 'enterprise' } })!;
    expect(result.isEnabled).toBe(true);
    expect(result.config!.payload).toEqual({ color: 'gold', limits: [1, 2] });
  });

  it('hands out payloads that callers cannot change for the next evaluation', () => {
    const evaluation = compiled.evaluate('checkout', { company: { plan: 'enterprise' } })!;
    const payload = evaluation.config!.payload as { limits: number[] };
    expect(Object.isFrozen(payload)).toBe(true);
    expect(Object.isFrozen(payload.limits)).toBe(true);
  });

  it('rollout filters in variants default their key to the flag key', () => {
    const rolled = compileSnapshot({
      flagStateVersion: 1,
      flags: [
        {
          key: 'my-flag',
          targetingVersion: 1,
          rules: [],
          config: {
            version: 1,
            variants: [
              {
                key: 'in',
                payload: 1,
                filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 38690 },
              },
            ],
          },
        },
      ],
    });
    // my-flag.company-1 → 38689
    expect(rolled.evaluate('my-flag', { company: { id: 'company-1' } })!.config!.key).toBe('in');
  });
});

describe('config selection, as @reflag/node-sdk does it', () => {
  const sdkEvaluator = newEvaluator(
    configured.config!.variants.map((variant) => ({
      filter: variant.filter as never,
      value: { key: variant.key, payload: variant.payload },
    })),
  );
  const compiled = compileSnapshot(snapshot);

  it.each([
    [{ company: { plan: 'enterprise' } }],
    [{ user: { beta: true } }],
    [{ user: { beta: 'false' }, company: { plan: 'pro' } }],
    [{}],
  ])('selects the same variant, with one result per variant, for %j', (context) => {
    const sdk = sdkEvaluator(context, 'checkout');
    const config = compiled.evaluate('checkout', context)!.config!;
    expect(config.key).toBe(sdk.value?.key ?? null);
    expect(config.payload).toEqual(sdk.value?.payload ?? null);
    expect(config.ruleEvaluationResults).toEqual(sdk.ruleEvaluationResults);
    expect(config.missingContextFields).toEqual(sdk.missingContextFields);
    expect(config.version).toBe(7);
  });

  it('reports no selection as null key and payload', () => {
    const none = compileSnapshot({
      flagStateVersion: 1,
      flags: [
        {
          key: 'f',
          targetingVersion: 1,
          rules: [],
          config: { version: 2, variants: [{ key: 'v', payload: 1, filter: plan('x') }] },
        },
      ],
    });
    expect(none.evaluate('f', { company: { plan: 'y' } })!.config).toEqual({
      key: null,
      version: 2,
      payload: null,
      ruleEvaluationResults: [false],
      evaluationErrors: [],
      missingContextFields: [],
    });
  });

  it('lists config problems in the config, not in the flag', () => {
    const result = compiled.evaluate('checkout', { company: { plan: 'free' } })!;
    expect(result.missingContextFields).toEqual(['user.beta']);
    expect(result.config!.missingContextFields).toEqual(['user.beta']);
    expect(result.config!.key).toBe('default');
    expect(result.evaluationErrors).not.toBe(result.config!.evaluationErrors);
  });
});

describe('evaluateAll with many flags', () => {
  it('returns every flag in snapshot order past the generated-literal limit, "__proto__" included', () => {
    const keys = ['__proto__', ...Array.from({ length: 1200 }, (_, i) => `flag-${i}`)];
    const compiled = compileSnapshot({
      flagStateVersion: 1,
      flags: keys.map((key, i) => ({
        key,
        targetingVersion: i,
        rules: [{ filter: { type: 'constant', value: i % 2 === 0 } }],
      })),
    });
    const all = compiled.evaluateAll({});
    expect(Object.keys(all)).toEqual(keys);
    expect(Object.getPrototypeOf(all)).toBe(Object.prototype);
    expect(all['__proto__']!.isEnabled).toBe(true);
    expect(all['flag-0']!.isEnabled).toBe(false);
    expect(all['flag-1199']!.targetingVersion).toBe(1200);
  });

  it('handles keys that need escaping in the generated literal', () => {
    const keys = ['a"b', "c'd", 'e\\f', 'g\nh', '\u2028', '0', '10', 'constructor', 'x}; throw 1; //'];
    const compiled = compileSnapshot({
      flagStateVersion: 1,
      flags: keys.map((key) => ({ key, targetingVersion: 1, rules: [{ filter: { type: 'constant', value: true } }] })),
    });
    const all = compiled.evaluateAll({});
    expect(Object.keys(all).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(all[key]!.key).toBe(key);
  });
});
