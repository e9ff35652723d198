import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { compileSnapshot, rolloutHash, type FlagDefinition } from '../src/index.js';
import { loadNativeSha256 } from '../src/targeting/native-sha256.js';
import { RolloutBatchSet, rolloutsOf } from '../src/targeting/rollout-batch.js';
import { swapRolloutBatches } from '../src/targeting/rollout-hash.js';
import { useNativeSha256 } from '../src/targeting/sha256-block.js';

const native = loadNativeSha256();

const rollout = (field: string, threshold: number, key?: string) => ({
  type: 'rolloutPercentage' as const,
  partialRolloutAttribute: field,
  partialRolloutThreshold: threshold,
  ...(key === undefined ? {} : { key }),
});

const flag = (key: string, filter: unknown): FlagDefinition => ({ key, targetingVersion: 1, rules: [{ filter: filter as never }] });

/**
 * Rollouts of every kind a batch must get right: many prefixes on one field (more than a batch's four lanes),
 * prefixes of every length up to and past one block, one prefix shared by two flags with different thresholds,
 * a second field, thresholds that decide without hashing, and rollouts inside groups and negations.
 */
const FLAGS: FlagDefinition[] = [
  ...Array.from({ length: 11 }, (_, i) => flag(`r${'x'.repeat(i * 5)}`, rollout('user.id', 9_000 * (i + 1)))),
  flag('shared-a', rollout('user.id', 30_000, 'shared')),
  flag('shared-b', rollout('user.id', 70_000, 'shared')),
  flag('company', rollout('company.id', 50_000)),
  flag('company-2', rollout('company.id', 20_000)),
  flag('all', rollout('user.id', 100_001)),
  flag('none', rollout('user.id', 0)),
  flag('grouped', { type: 'group', operator: 'and', filters: [rollout('user.id', 60_000), { type: 'negation', filter: rollout('company.id', 40_000) }] }),
  flag('ünïcode-key', rollout('user.id', 50_000)),
];

/** Whether each flag is enabled for this user and company, straight from `rolloutHash`. */
function expected(userId: string, companyId: string): boolean[] {
  const under = (key: string, value: string, threshold: number) =>
    threshold <= 0 ? false : threshold > 100_000 ? true : rolloutHash(`${key}.${value}`) < threshold;
  return FLAGS.map((definition) => {
    if (definition.key === 'grouped') return under('grouped', userId, 60_000) && !under('grouped', companyId, 40_000);
    const filter = definition.rules[0]!.filter as ReturnType<typeof rollout>;
    const value = filter.partialRolloutAttribute === 'user.id' ? userId : companyId;
    return under(filter.key ?? definition.key, value, filter.partialRolloutThreshold);
  });
}

function outcomesOf(userId: string, companyId: string): boolean[] {
  const snapshot = compiled;
  const codes = new Int32Array(FLAGS.length);
  snapshot.outcomes({ user: { id: userId }, company: { id: companyId } }, codes);
  return [...codes].map((code) => (code & 1) === 1);
}

const compiled = compileSnapshot({ flagStateVersion: 1, flags: FLAGS });

describe('rollout hashes batched per field', () => {
  afterEach(() => useNativeSha256(native));

  it('lists the rollout filters that hash, with the prefix and field of each', () => {
    expect(rolloutsOf(FLAGS.find((f) => f.key === 'shared-a')!)).toEqual([{ field: 'user.id', prefix: 'shared.' }]);
    expect(rolloutsOf(FLAGS.find((f) => f.key === 'all')!)).toEqual([]);
    expect(rolloutsOf(FLAGS.find((f) => f.key === 'grouped')!)).toEqual([
      { field: 'user.id', prefix: 'grouped.' },
      { field: 'company.id', prefix: 'grouped.' },
    ]);
  });

  it('are made only with the addon, and only for a field hashed with more than one prefix', () => {
    useNativeSha256(null);
    expect(RolloutBatchSet.of(FLAGS.flatMap(rolloutsOf))).toBeNull();
    useNativeSha256(native);
    expect(RolloutBatchSet.of(rolloutsOf(FLAGS[0]!))).toBeNull();
    expect(RolloutBatchSet.of(FLAGS.flatMap(rolloutsOf)) === null).toBe(native === null);
  });

  it('give every flag the decision rolloutHash gives, for ASCII, non-ASCII, short and long ids', () => {
    const id = fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 20 }));
    const pairs = fc.sample(fc.tuple(id, id), { numRuns: 1500, seed: 20261124 });
    // Runs of one user, as a burst of requests sends them: the second meets the filters' remembered hashes.
    for (const [userId, companyId] of pairs.flatMap((pair) => [pair, pair])) {
      expect(outcomesOf(userId, companyId), `${JSON.stringify(userId)} / ${JSON.stringify(companyId)}`).toEqual(expected(userId, companyId));
    }
  });

  it('agree with single-flag evaluation, which does not batch, and with evaluateAll, which does', () => {
    for (let i = 0; i < 500; i++) {
      const userId = `user-${Math.imul(i + 1, 2654435761) >>> 0}`;
      const companyId = `company-${i % 37}`;
      const one = FLAGS.map((definition) => compiled.evaluate(definition.key, { user: { id: userId }, company: { id: companyId } })!.isEnabled);
      expect(one).toEqual(expected(userId, companyId));
      expect(outcomesOf(userId, companyId)).toEqual(one);
      const all = compiled.evaluateAll({ user: { id: `${userId}-all` }, company: { id: companyId } });
      expect(FLAGS.map((definition) => all[definition.key]!.isEnabled)).toEqual(expected(`${userId}-all`, companyId));
    }
  });

  it('are active only while a snapshot evaluates all its flags, also when a context getter throws', () => {
    const codes = new Int32Array(FLAGS.length);
    compiled.outcomes({ user: { id: 'u1' }, company: { id: 'c1' } }, codes);
    expect(swapRolloutBatches(null)).toBeNull();
    const throwing = { user: { id: 'u2' }, get company(): never { throw new Error('getter'); } };
    expect(() => compiled.outcomes(throwing, codes)).toThrow('getter');
    expect(swapRolloutBatches(null)).toBeNull();
    expect(() => compiled.evaluateAll(throwing)).toThrow('getter');
    expect(swapRolloutBatches(null)).toBeNull();
  });

  it('work for each snapshot when two share flag keys (two environments)', () => {
    const other = compileSnapshot({ flagStateVersion: 2, flags: FLAGS });
    const codes = new Int32Array(FLAGS.length);
    for (let i = 0; i < 200; i++) {
      const context = { user: { id: `u${i}` }, company: { id: `c${i % 5}` } };
      other.outcomes(context, codes);
      expect([...codes].map((code) => (code & 1) === 1)).toEqual(expected(`u${i}`, `c${i % 5}`));
      expect(outcomesOf(`u${i}`, `c${i % 5}`)).toEqual(expected(`u${i}`, `c${i % 5}`));
    }
  });
});
