import { describe, expect, it } from 'vitest';
import { TargetingMutationResponseSchema, TargetingSchema } from '../../../packages/core/src/schemas/targeting.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, versions } from './support/management.js';

const PRO = { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } as const;
const HALF = { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50000 } as const;

forEachAdapter((harness) => {
  const path = (h: Harness, key = 'k', envId = h.envs.production.id) => `/apps/${h.appId}/flags/${key}/targeting/${envId}`;

  describe('GET/PUT /apps/{appId}/flags/{flagKey}/targeting/{envId} (extension)', () => {
    it('reads version 0 and no rules for a new flag', async () => {
      const h = harness();
      const { flag } = (await createFlag(h, { key: 'k' })).body;
      const res = await h.request('GET', path(h));
      expect(res.status).toBe(200);
      expectSchema(TargetingSchema, res.body);
      expect(res.body).toEqual({ flagId: flag.id, flagKey: 'k', envId: h.envs.production.id, version: 0, rules: [], config: { version: 0, variants: [] }, prerequisites: [], updatedAt: null });
    });

    it('replaces rules: bumps that environment once, version +1, configVersion only when config changes', async () => {
      const h = harness();
      await createFlag(h, { key: 'k' });
      const before = await versions(h);
      const res = await h.request('PUT', path(h), { body: { rules: [{ filter: PRO }, { filter: HALF }] } });
      expect(res.status).toBe(200);
      expectSchema(TargetingMutationResponseSchema, res.body);
      expect(res.body.targeting).toMatchObject({ version: 1, rules: [{ filter: PRO }, { filter: HALF }], config: { version: 0, variants: [] } });
      expect(res.body.flagStateVersion).toBe(before[h.envs.production.id]! + 1);
      expect(await versions(h)).toEqual({ ...before, [h.envs.production.id]: before[h.envs.production.id]! + 1 });

      const variants = [{ key: 'blue', payload: { color: 'blue' }, filter: PRO }];
      const withConfig = await h.request('PUT', path(h), { body: { rules: [{ filter: PRO }, { filter: HALF }], config: { variants } } });
      expect(withConfig.body.targeting).toMatchObject({ version: 2, config: { version: 1, variants } });
      // Omitting config keeps it.
      const rulesOnly = await h.request('PUT', path(h), { body: { rules: [{ filter: PRO }] } });
      expect(rulesOnly.body.targeting).toMatchObject({ version: 3, config: { version: 1, variants } });
      const served = (await h.request('GET', '/features', { key: h.envs.production.secretKey })).body.features[0];
      expect(served.targeting.version).toBe(3);
      expect(served.config).toMatchObject({ version: 1, variants: [{ key: 'blue' }] });

      const evaluated = await h.request('GET', '/features/evaluated', { key: h.envs.production.secretKey, query: { 'context.user.id': 'u', 'context.user.plan': 'pro' } });
      expect(evaluated.body.features.k.isEnabled).toBe(true);
    });

    it('sending what is stored changes nothing', async () => {
      const h = harness();
      await createFlag(h, { key: 'k' });
      const first = await h.request('PUT', path(h), { body: { rules: [{ filter: PRO }] } });
      await expectNothingStored(h, async () => {
        const again = await h.request('PUT', path(h), { body: { rules: [{ filter: { values: ['pro'], operator: 'IS', field: 'user.plan', type: 'context' } }] } });
        expect(again.status).toBe(200);
        expect(again.body.flagStateVersion).toBe(first.body.flagStateVersion);
        expect(again.body.targeting.version).toBe(1);
      });
    });

    it('ifVersion: applies on the version it names; a change made meanwhile is refused, not overwritten', async () => {
      const h = harness();
      await createFlag(h, { key: 'k' });
      const first = await h.request('PUT', path(h), { body: { rules: [{ filter: PRO }], ifVersion: 0 } });
      expect(first.status, first.text).toBe(200);
      expect(first.body.targeting.version).toBe(1);
      // A second editor still on version 0: refused, and nothing stored.
      await expectNothingStored(h, async () => {
        const stale = await h.request('PUT', path(h), { body: { rules: [{ filter: HALF }], ifVersion: 0 } });
        expectError(stale, 400, 'not_possible', 'ifVersion');
        expect(stale.body.issues.ifVersion).toEqual([expect.stringContaining('the targeting is now at version 1')]);
      });
      // Targeting a user one by one moves the version too, so it also counts as a change made meanwhile.
      await h.request('PUT', `/apps/${h.appId}/envs/${h.envs.production.id}/users/u1`, { body: {} });
      await h.request('PATCH', `/apps/${h.appId}/envs/${h.envs.production.id}/users/u1/flags`, { body: { updates: [{ flagKey: 'k', specificTargetValue: true }] } });
      expectError(await h.request('PUT', path(h), { body: { rules: [], ifVersion: 1 } }), 400, 'not_possible', 'ifVersion');
      const current = (await h.request('GET', path(h))).body.version;
      expect((await h.request('PUT', path(h), { body: { rules: [], ifVersion: current } })).status).toBe(200);
      expectError(await h.request('PUT', path(h), { body: { rules: [], ifVersion: -1 } }), 400, 'invalid_request', 'ifVersion');
    });

    it('accepts rules referencing a segment of the app', async () => {
      const h = harness();
      await createFlag(h, { key: 'k' });
      const all = (await h.request('GET', `/apps/${h.appId}/segments`)).body.data[0].id;
      const res = await h.request('PUT', path(h), { body: { rules: [{ segmentId: all, filter: { type: 'constant', value: true } }] } });
      expect(res.body.targeting.rules).toEqual([{ segmentId: all, filter: { type: 'constant', value: true } }]);
    });

    it('serves every rollout with key = the flag key, whether sent or left out', async () => {
      const h = harness();
      await createFlag(h, { key: 'k' });
      const rules = [{ filter: HALF }, { filter: { ...HALF, key: 'k' } }];
      expect((await h.request('PUT', path(h), { body: { rules } })).status).toBe(200);
      const served = (await h.request('GET', '/features', { key: h.envs.production.secretKey })).body.features.find((f: { key: string }) => f.key === 'k');
      expect(served.targeting.rules.map((r: { filter: { key?: string } }) => r.filter.key)).toEqual(['k', 'k']);
    });

    it('validates rules, segments and variants, storing nothing', async () => {
      const h = harness();
      await createFlag(h, { key: 'k' });
      const put = (body: unknown, p = path(h)) => h.request('PUT', p, { body });
      await expectNothingStored(h, async () => {
        expectError(await put({}), 400, 'invalid_request', 'rules');
        expectError(await put({ rules: [{ filter: { ...PRO, values: [] } }] }), 400, 'invalid_request', 'rules.0.filter.values');
        expectError(await put({ rules: [{ filter: { ...HALF, partialRolloutThreshold: 100001 } }] }), 400, 'invalid_request');
        expectError(await put({ rules: [{ filter: { type: 'group', operator: 'or', filters: [PRO, { ...HALF, key: 'other' }] } }] }), 400, 'invalid_request', 'rules.0.filter.filters.1.key');
        expectError(await put({ rules: [], config: { variants: [{ key: 'a', payload: 1, filter: { ...HALF, key: 'other' } }] } }), 400, 'invalid_request', 'config.variants.0.filter.key');
        expectError(await put({ rules: [{ filter: PRO, extra: 1 }] }), 400, 'invalid_request');
        // Filters and variants are closed too: an unknown property would be stored and served to every SDK.
        expectError(await put({ rules: [{ filter: { ...PRO, extra: 1 } }] }), 400, 'invalid_request', 'rules.0.filter');
        expectError(await put({ rules: [{ filter: { type: 'constant', value: true, foo: 'bar' } }] }), 400, 'invalid_request', 'rules.0.filter');
        expectError(await put({ rules: [{ filter: { type: 'group', operator: 'and', filters: [], note: 'x' } }] }), 400, 'invalid_request', 'rules.0.filter');
        expectError(await put({ rules: [], config: { variants: [{ key: 'a', payload: 1, filter: PRO, extra: 1 }] } }), 400, 'invalid_request');
        expectError(await h.request('POST', `/apps/${h.appId}/segments`, { body: { name: 'S', filter: { ...PRO, extra: 1 } } }), 400, 'invalid_request');
        expectError(await put({ rules: [{ filter: PRO, segmentId: 'sgnope' }] }), 400, 'not_possible', 'rules.0.segmentId');
        expectError(
          await put({ rules: [], config: { variants: [{ key: 'a', payload: 1, filter: PRO }, { key: 'a', payload: 2, filter: PRO }] } }),
          400,
          'invalid_request',
          'config.variants.1.key',
        );
        expectError(await put({ rules: [] }, path(h, 'missing')), 404, 'not_found');
        expectError(await put({ rules: [] }, path(h, 'k', 'ennope')), 404, 'not_found');
        expectError(await h.request('GET', path(h, 'missing')), 404, 'not_found');
      });
    });
  });
});

forEachAdapter((harness) => {
  const path = (h: Harness) => `/apps/${h.appId}/flags/k/targeting/${h.envs.production.id}`;

  describe('PUT targeting with ifVersion (optimistic concurrency)', () => {
    it('applies when ifVersion is the stored version, refuses with the current version otherwise, changing nothing', async () => {
      const h = harness();
      await createFlag(h, { key: 'k' });
      const first = await h.request('PUT', path(h), { body: { rules: [{ filter: PRO }], ifVersion: 0 } });
      expect(first.status).toBe(200);
      expect(first.body.targeting.version).toBe(1);
      await expectNothingStored(h, async () => {
        const stale = await h.request('PUT', path(h), { body: { rules: [{ filter: HALF }], ifVersion: 0 } });
        expectError(stale, 400, 'not_possible', 'ifVersion');
        expect(stale.body.issues.ifVersion[0]).toMatch(/now at version 1/);
        expectError(await h.request('PUT', path(h), { body: { rules: [], ifVersion: -1 } }), 400, 'invalid_request', 'ifVersion');
      });
      const next = await h.request('PUT', path(h), { body: { rules: [{ filter: HALF }], ifVersion: 1 } });
      expect(next.body.targeting).toMatchObject({ version: 2, rules: [{ filter: { ...HALF, key: 'k' } }] });
      // Without ifVersion the last write wins, as before.
      expect((await h.request('PUT', path(h), { body: { rules: [] } })).body.targeting.version).toBe(3);
    });
  });
});
