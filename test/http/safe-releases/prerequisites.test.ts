import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TargetingSchema } from '../../../packages/core/src/schemas/targeting.js';
import { expressFactory } from '../support/adapters.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, otherOrganization, versions } from '../management/support/management.js';

const ON = { type: 'constant', value: true } as const;
const HALF = { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50000 } as const;

describe('prerequisite flags', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness(expressFactory);
  });
  afterEach(() => h.close());
  const path = (key: string, envId = h.envs.production.id) => `/apps/${h.appId}/flags/${key}/targeting/${envId}`;
  const put = (key: string, body: unknown, envId?: string) => h.request('PUT', path(key, envId), { body });
  const requires = (...keys: string[]) => keys.map((flagKey) => ({ flagKey, isEnabled: true }));
  const served = async (key: string) =>
    (await h.request('GET', '/features', { key: h.envs.production.secretKey })).body.features.find((f: { key: string }) => f.key === key);

  it('stores and shows prerequisites; /features serves the prerequisite inlined with its own rollout key', async () => {
    for (const key of ['a', 'b']) await createFlag(h, { key });
    expect((await put('a', { rules: [{ filter: HALF }] })).status).toBe(200);
    const res = await put('b', { rules: [{ filter: ON }], prerequisites: [{ flagKey: 'a', isEnabled: false }] });
    expect(res.status).toBe(200);
    expect(res.body.targeting.prerequisites).toEqual([{ flagKey: 'a', isEnabled: false }]);
    const got = (await h.request('GET', path('b'))).body;
    expectSchema(TargetingSchema, got);
    expect(got.prerequisites).toEqual([{ flagKey: 'a', isEnabled: false }]);
    expect((await served('b')).targeting.rules).toEqual([
      { filter: { type: 'group', operator: 'and', filters: [{ type: 'negation', filter: { ...HALF, key: 'a' } }, ON] } },
    ]);
    // Omitting prerequisites keeps them; [] removes them.
    expect((await put('b', { rules: [{ filter: ON }, { filter: HALF }] })).body.targeting.prerequisites).toEqual([{ flagKey: 'a', isEnabled: false }]);
    expect((await put('b', { rules: [{ filter: ON }], prerequisites: [] })).body.targeting.prerequisites).toEqual([]);
    expect((await served('b')).targeting.rules).toEqual([{ filter: ON }]);
  });

  it('a change to a prerequisite bumps its dependents’ targeting versions (two deep), in one environment bump', async () => {
    for (const key of ['a', 'b', 'c', 'other']) await createFlag(h, { key });
    await put('b', { rules: [{ filter: ON }], prerequisites: requires('a') });
    await put('c', { rules: [{ filter: ON }], prerequisites: requires('b') });
    await put('other', { rules: [{ filter: ON }] });
    const vOf = async (key: string) => (await h.request('GET', path(key))).body.version as number;
    const before = { b: await vOf('b'), c: await vOf('c'), other: await vOf('other') };
    const envBefore = await versions(h);
    expect((await put('a', { rules: [{ filter: HALF }] })).status).toBe(200);
    expect({ b: await vOf('b'), c: await vOf('c'), other: await vOf('other') }).toEqual({ b: before.b + 1, c: before.c + 1, other: before.other });
    expect(await versions(h)).toEqual({ ...envBefore, [h.envs.production.id]: envBefore[h.envs.production.id]! + 1 });
    expect((await served('c')).targeting.version).toBe(before.c + 1);
    // A specific target added to the prerequisite (rows 9/11) changes what they serve too.
    const user = `/apps/${h.appId}/envs/${h.envs.production.id}/users/u1`;
    expect((await h.request('PUT', user, { body: {} })).status).toBe(200);
    expect((await h.request('PATCH', `${user}/flags`, { body: { updates: [{ flagKey: 'a', specificTargetValue: true }] } })).status).toBe(200);
    expect({ b: await vOf('b'), c: await vOf('c'), other: await vOf('other') }).toEqual({ b: before.b + 2, c: before.c + 2, other: before.other });
    // Other environments are apart.
    expect((await h.request('GET', path('b', h.envs.development.id))).body.version).toBe(0);
  });

  it('refuses cycles, unknown or foreign flags, itself, duplicates and chains deeper than 5, storing nothing', async () => {
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'old']) await createFlag(h, { key });
    await put('b', { rules: [], prerequisites: requires('a') });
    await put('c', { rules: [], prerequisites: requires('b') });
    const old = (await h.request('GET', `/apps/${h.appId}/flags`)).body.data.find((f: { key: string }) => f.key === 'old');
    expect((await h.request('PATCH', `/apps/${h.appId}/flags/${old.id}`, { body: { isArchived: true } })).status).toBe(200);
    const foreign = await otherOrganization(h);
    await expectNothingStored(h, async () => {
      const cycle = await put('a', { rules: [], prerequisites: requires('c') });
      expectError(cycle, 400, 'not_possible', 'prerequisites');
      expect(cycle.body.issues.prerequisites[0]).toMatch(/a → c → b → a/);
      expectError(await put('a', { rules: [], prerequisites: requires('a') }), 400, 'not_possible', 'prerequisites.0.flagKey');
      expectError(await put('a', { rules: [], prerequisites: requires('nope') }), 400, 'not_possible', 'prerequisites.0.flagKey');
      expectError(await put('a', { rules: [], prerequisites: requires('other-flag') }), 400, 'not_possible', 'prerequisites.0.flagKey');
      expect(foreign.appId).not.toBe(h.appId);
      expectError(await put('a', { rules: [], prerequisites: requires('old') }), 400, 'not_possible', 'prerequisites.0.flagKey');
      expectError(await put('d', { rules: [], prerequisites: requires('a', 'a') }), 400, 'invalid_request', 'prerequisites.1.flagKey');
      expectError(await put('d', { rules: [], prerequisites: [{ flagKey: 'a' }] }), 400, 'invalid_request');
    });
    // c → b → a is 2 deep; g → f → e → d → c → b → a would be 6.
    await put('d', { rules: [], prerequisites: requires('c') });
    await put('e', { rules: [], prerequisites: requires('d') });
    expect((await put('f', { rules: [], prerequisites: requires('e') })).status).toBe(200); // 5 deep: allowed
    await createFlag(h, { key: 'z' });
    await expectNothingStored(h, async () => {
      const deep = await put('g', { rules: [], prerequisites: requires('f') });
      expectError(deep, 400, 'not_possible', 'prerequisites');
      expect(deep.body.issues.prerequisites[0]).toMatch(/chain of 6/);
      // Deepening from below counts every flag already standing on it: f → … → a → z would be 6.
      const below = await put('a', { rules: [], prerequisites: requires('z') });
      expectError(below, 400, 'not_possible', 'prerequisites');
      expect(below.body.issues.prerequisites[0]).toMatch(/Flag f .*chain of 6/);
    });
  });

  it('refuses to archive a flag others require, naming them; archiving works once they let go', async () => {
    for (const key of ['a', 'b', 'c']) await createFlag(h, { key });
    await put('b', { rules: [], prerequisites: requires('a') });
    await put('c', { rules: [], prerequisites: [{ flagKey: 'a', isEnabled: false }] }, h.envs.development.id);
    const a = (await h.request('GET', `/apps/${h.appId}/flags`)).body.data.find((f: { key: string }) => f.key === 'a');
    await expectNothingStored(h, async () => {
      const refused = await h.request('PATCH', `/apps/${h.appId}/flags/${a.id}`, { body: { isArchived: true } });
      expectError(refused, 400, 'not_possible', 'isArchived');
      expect(refused.body.issues.isArchived[0]).toContain('b, c');
    });
    await put('b', { rules: [], prerequisites: [] });
    await put('c', { rules: [], prerequisites: [] }, h.envs.development.id);
    expect((await h.request('PATCH', `/apps/${h.appId}/flags/${a.id}`, { body: { isArchived: true } })).status).toBe(200);
  });
});
