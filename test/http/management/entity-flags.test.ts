import { describe, expect, it } from 'vitest';
import { EntityFlagsResponseSchema, UpdateEntityFlagsResponseSchema } from '../../../packages/core/src/schemas/entity-flag.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, otherOrganization, str, versions } from './support/management.js';

const KINDS = [
  { type: 'user', segment: 'users', field: 'user.id' },
  { type: 'company', segment: 'companies', field: 'company.id' },
] as const;

forEachAdapter((harness) => {
  for (const kind of KINDS) {
    const path = (h: Harness, id: string, envId = h.envs.production.id, appId = h.appId) =>
      `/apps/${appId}/envs/${envId}/${kind.segment}/${encodeURIComponent(id)}/flags`;
    const patch = (h: Harness, id: string, body: unknown, envId?: string) => h.request('PATCH', path(h, id, envId), { body });

    describe(`GET …/${kind.segment}/{id}/flags (rows 8/10)`, () => {
      it('lists every flag by key with value, specificTargetValue and zeroed stats for an unknown entity', async () => {
        const h = harness();
        await createFlag(h, { key: 'b-flag' });
        await createFlag(h, { key: 'a-flag' });
        const res = await h.request('GET', path(h, 'nobody'));
        expect(res.status).toBe(200);
        expectSchema(EntityFlagsResponseSchema, res.body);
        expect(res.body).toMatchObject({ totalCount: 2, pageSize: 2, pageIndex: 0 });
        expect(res.body.data[0]).toEqual({
          id: expect.any(String),
          key: 'a-flag',
          name: 'a-flag',
          createdAt: expect.any(String),
          value: false,
          specificTargetValue: null,
          firstExposureAt: null,
          lastExposureAt: null,
          lastCheckAt: null,
          exposureCount: 0,
          firstTrackAt: null,
          lastTrackAt: null,
          trackCount: 0,
        });
      });

      it('evaluates the rules against the stored attributes of the entity', async () => {
        const h = harness();
        await createFlag(h, { key: 'pro-only' });
        const attr = `${kind.type}.plan`;
        await h.request('PUT', `/apps/${h.appId}/flags/pro-only/targeting/${h.envs.production.id}`, {
          body: { rules: [{ filter: { type: 'context', field: attr, operator: 'IS', values: ['pro'] } }] },
        });
        const base = `/apps/${h.appId}/envs/${h.envs.production.id}/${kind.segment}`;
        expect((await h.request('PUT', `${base}/e1`, { body: { attributes: { plan: 'pro' } } })).status).toBe(200);
        await h.request('PUT', `${base}/e2`, { body: { attributes: { plan: 'free' } } });
        expect((await h.request('GET', path(h, 'e1'))).body.data[0].value).toBe(true);
        expect((await h.request('GET', path(h, 'e2'))).body.data[0].value).toBe(false);
        // Other environment: no rules there.
        expect((await h.request('GET', path(h, 'e1', h.envs.development.id))).body.data[0].value).toBe(false);
      });

      it('reports exposure/check/track stats of the entity', async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        const t1 = '2025-01-01T00:00:00.000Z';
        const t2 = '2025-01-02T00:00:00.000Z';
        await h.storage.stats.mergeEntityFlagStats([
          { envId: h.envs.production.id, entityType: kind.type, entityId: 'e1', flagKey: 'k', firstExposureAt: t1, lastExposureAt: t2, exposureCount: 4, lastCheckAt: t2, checkCount: 6, firstTrackAt: t1, lastTrackAt: t1, trackCount: 1 },
        ]);
        const res = await h.request('GET', path(h, 'e1'));
        expectSchema(EntityFlagsResponseSchema, res.body);
        expect(res.body.data[0]).toMatchObject({ firstExposureAt: t1, lastExposureAt: t2, lastCheckAt: t2, exposureCount: 4, firstTrackAt: t1, lastTrackAt: t1, trackCount: 1 });
      });

      it('accepts ids of 1..128 characters, 400 beyond; 404 for unknown or foreign environments', async () => {
        const h = harness();
        expect((await h.request('GET', path(h, str(128)))).status).toBe(200);
        expectError(await h.request('GET', path(h, str(129))), 400, 'invalid_request', kind.type === 'user' ? 'userId' : 'companyId');
        expectError(await h.request('GET', path(h, 'e', 'ennope')), 404, 'not_found');
        expectError(await h.request('GET', path(h, 'e', h.envs.production.id, 'apnope')), 404, 'not_found');
        const other = await otherOrganization(h);
        expectError(await h.request('GET', path(h, 'e', other.envId)), 404, 'not_found');
        expectError(await h.request('GET', path(h, 'e', other.envId, other.appId)), 401, 'unauthenticated');
      });
    });

    describe(`PATCH …/${kind.segment}/{id}/flags (rows 9/11)`, () => {
      it('adds an override: value true, served as an ANY_OF rule, one bump of that environment only', async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        const before = await versions(h);
        const res = await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: true }], changeDescription: 'beta access' });
        expect(res.status).toBe(200);
        expectSchema(UpdateEntityFlagsResponseSchema, res.body);
        expect(res.body.data[0]).toMatchObject({ key: 'k', value: true, specificTargetValue: true });
        expect(res.body.flagStateVersion).toBe(before[h.envs.production.id]! + 1);
        expect(await versions(h)).toEqual({ ...before, [h.envs.production.id]: before[h.envs.production.id]! + 1 });
        const features = (await h.request('GET', '/features', { key: h.envs.production.secretKey })).body;
        const served = features.features.find((f: { key: string }) => f.key === 'k');
        expect(served.targeting.version).toBe(1);
        expect(served.targeting.rules[0].filter).toEqual({ type: 'context', field: kind.field, operator: 'ANY_OF', values: ['e1'] });
        expect(features.flagStateVersion).toBe(res.body.flagStateVersion);
        const audit = (await h.request('GET', `/apps/${h.appId}/audit`)).body.data[0];
        expect(audit).toMatchObject({ action: 'flag.specificTarget.added', changeDescription: 'beta access', envId: h.envs.production.id });
      });

      it('removes an override with null; many updates in one request bump once', async () => {
        const h = harness();
        for (const key of ['a', 'b', 'c']) await createFlag(h, { key });
        const v0 = (await versions(h))[h.envs.production.id]!;
        const added = await patch(h, 'e1', { updates: ['a', 'b', 'c'].map((flagKey) => ({ flagKey, specificTargetValue: true })) });
        expect(added.body.flagStateVersion).toBe(v0 + 1);
        expect(added.body.data.map((f: { specificTargetValue: unknown }) => f.specificTargetValue)).toEqual([true, true, true]);
        const removed = await patch(h, 'e1', { updates: [{ flagKey: 'b', specificTargetValue: null }, { flagKey: 'c', specificTargetValue: null }] });
        expect(removed.body.flagStateVersion).toBe(v0 + 2);
        expect(removed.body.data.map((f: { key: string; specificTargetValue: unknown; value: boolean }) => [f.key, f.specificTargetValue, f.value])).toEqual([
          ['a', true, true],
          ['b', null, false],
          ['c', null, false],
        ]);
        const targeting = (await h.request('GET', `/apps/${h.appId}/flags/b/targeting/${h.envs.production.id}`)).body;
        expect(targeting.version).toBe(2);
      });

      it('changes nothing (no bump, nothing stored) when the overrides already are as asked', async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        const first = await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: true }] });
        await expectNothingStored(h, async () => {
          const again = await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: true }] });
          expect(again.status).toBe(200);
          expectSchema(UpdateEntityFlagsResponseSchema, again.body);
          expect(again.body.flagStateVersion).toBe(first.body.flagStateVersion);
          const absent = await patch(h, 'other', { updates: [{ flagKey: 'k', specificTargetValue: null }] });
          expect(absent.body.flagStateVersion).toBe(first.body.flagStateVersion);
          // Last one wins within a request: add then remove = nothing.
          const net = await patch(h, 'e2', { updates: [{ flagKey: 'k', specificTargetValue: true }, { flagKey: 'k', specificTargetValue: null }] });
          expect(net.body.flagStateVersion).toBe(first.body.flagStateVersion);
        });
      });

      it('answers 400 for bad bodies and unknown flags, storing nothing', async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        await expectNothingStored(h, async () => {
          expectError(await patch(h, 'e1', { updates: [] }), 400, 'invalid_request', 'updates');
          expectError(await patch(h, 'e1', {}), 400, 'invalid_request', 'updates');
          expectError(await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: false }] }), 400, 'invalid_request', 'updates.0.specificTargetValue');
          expectError(await patch(h, 'e1', { updates: [{ flagKey: 'k' }] }), 400, 'invalid_request', 'updates.0.specificTargetValue');
          expectError(await patch(h, 'e1', { updates: [{ flagKey: '', specificTargetValue: true }] }), 400, 'invalid_request', 'updates.0.flagKey');
          expectError(await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: true, extra: 1 }] }), 400, 'invalid_request');
          expectError(await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: true }], notifications: ['email'] }), 400, 'invalid_request', 'notifications.0');
          expectError(await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: true }], changeDescription: 5 }), 400, 'invalid_request', 'changeDescription');
          expectError(
            await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: true }, { flagKey: 'missing', specificTargetValue: true }] }),
            400,
            'not_possible',
            'updates.1.flagKey',
          );
          expectError(await patch(h, str(129), { updates: [{ flagKey: 'k', specificTargetValue: true }] }), 400, 'invalid_request');
          expectError(await patch(h, 'e1', { updates: [{ flagKey: 'k', specificTargetValue: true }] }, 'ennope'), 404, 'not_found');
        });
      });

      it('targets an entity upserted just before (the documented sequence)', async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        const base = `/apps/${h.appId}/envs/${h.envs.production.id}/${kind.segment}/fresh`;
        expect((await h.request('PUT', base, { body: { name: 'Fresh', attributes: { a: 1 } } })).status).toBe(200);
        const res = await patch(h, 'fresh', { updates: [{ flagKey: 'k', specificTargetValue: true }] });
        expect(res.body.data[0].value).toBe(true);
        const evaluated = await h.request('GET', '/features/evaluated', {
          key: h.envs.production.secretKey,
          query: { [`context.${kind.type}.id`]: 'fresh' },
        });
        expect(evaluated.body.features.k.isEnabled).toBe(true);
      });
    });
  }
});
