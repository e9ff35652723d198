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
    /** Stores the entity (management upsert): its flags can only be read or targeted once it is stored. */
    const upsert = async (h: Harness, id: string, body: Record<string, unknown> = {}, envId = h.envs.production.id) => {
      const res = await h.request('PUT', `/apps/${h.appId}/envs/${envId}/${kind.segment}/${encodeURIComponent(id)}`, { body });
      expect(res.status, res.text).toBe(200);
      return res;
    };

    describe(`GET …/${kind.segment}/{id}/flags (rows 8/10)`, () => {
      it('lists every flag by key with value, specificTargetValue and zeroed stats for an entity never seen by the SDKs', async () => {
        const h = harness();
        await createFlag(h, { key: 'b-flag' });
        await createFlag(h, { key: 'a-flag' });
        await upsert(h, 'nobody');
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
        // Other environment: the same attributes stored there, but no rules there.
        await upsert(h, 'e1', { attributes: { plan: 'pro' } }, h.envs.development.id);
        expect((await h.request('GET', path(h, 'e1', h.envs.development.id))).body.data[0].value).toBe(false);
      });

      it('reports exposure/check/track stats of the entity', async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        const t1 = '2025-01-01T00:00:00.000Z';
        const t2 = '2025-01-02T00:00:00.000Z';
        await upsert(h, 'e1');
        await h.storage.stats.mergeEntityFlagStats([
          { envId: h.envs.production.id, entityType: kind.type, entityId: 'e1', flagKey: 'k', firstExposureAt: t1, lastExposureAt: t2, exposureCount: 4, lastCheckAt: t2, checkCount: 6, firstTrackAt: t1, lastTrackAt: t1, trackCount: 1 },
        ]);
        const res = await h.request('GET', path(h, 'e1'));
        expectSchema(EntityFlagsResponseSchema, res.body);
        expect(res.body.data[0]).toMatchObject({ firstExposureAt: t1, lastExposureAt: t2, lastCheckAt: t2, exposureCount: 4, firstTrackAt: t1, lastTrackAt: t1, trackCount: 1 });
      });

      it('accepts ids of 1..128 characters, 400 beyond; 404 for unknown or foreign environments', async () => {
        const h = harness();
        await upsert(h, str(128));
        // Stored, so the 404s below are about the environment or app, not the entity.
        await upsert(h, 'e');
        expect((await h.request('GET', path(h, str(128)))).status).toBe(200);
        expectError(await h.request('GET', path(h, str(129))), 400, 'invalid_request', kind.type === 'user' ? 'userId' : 'companyId');
        // An empty id is an id of length 0, not a shorter path (`…/users//flags` is not a user called "flags").
        expectError(await h.request('GET', path(h, '')), 400, 'invalid_request', kind.type === 'user' ? 'userId' : 'companyId');
        expectError(await patch(h, '', { updates: [{ flagKey: 'k', specificTargetValue: true }] }), 400, 'invalid_request');
        // Characters, not UTF-16 units: 128 emoji are 128 characters.
        await upsert(h, '\u{1F600}'.repeat(128));
        expect((await h.request('GET', path(h, '\u{1F600}'.repeat(128)))).status).toBe(200);
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
        await upsert(h, 'e1');
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
        await upsert(h, 'e1');
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
        for (const id of ['e1', 'other', 'e2']) await upsert(h, id);
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
        await upsert(h, 'e1');
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

    describe(`…/${kind.segment}/{id}/flags of a ${kind.type} that is not stored (spec: upsert first, then target)`, () => {
      const update = { updates: [{ flagKey: 'k', specificTargetValue: true }] };
      const entityPath = (h: Harness, id: string) => `/apps/${h.appId}/envs/${h.envs.production.id}/${kind.segment}/${encodeURIComponent(id)}`;

      it('GET and PATCH answer 404 not_found for one never stored (here, nor as the other kind): no override, no bump', async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        // Stored in another environment, and under the same id as the other kind: neither counts.
        await upsert(h, 'ghost', {}, h.envs.development.id);
        const other = kind.type === 'user' ? 'companies' : 'users';
        expect((await h.request('PUT', `/apps/${h.appId}/envs/${h.envs.production.id}/${other}/ghost`, { body: {} })).status).toBe(200);
        const before = await versions(h);
        await expectNothingStored(h, async () => {
          expectError(await h.request('GET', path(h, 'ghost')), 404, 'not_found');
          expectError(await patch(h, 'ghost', update), 404, 'not_found');
          expectError(await patch(h, 'ghost', { ...update, changeDescription: 'x', notifications: [] }), 404, 'not_found');
          expectError(await patch(h, 'ghost', { updates: [{ flagKey: 'k', specificTargetValue: null }] }), 404, 'not_found');
        });
        expect(await versions(h)).toEqual(before);
        expect(await h.storage.specificTargets.listForEntity(h.envs.production.id, kind.type, 'ghost')).toEqual([]);
        const features = (await h.request('GET', '/features', { key: h.envs.production.secretKey })).body;
        expect(features.flagStateVersion).toBe(before[h.envs.production.id]);
        expect(features.features.find((f: { key: string }) => f.key === 'k').targeting.rules).toEqual([]);
        // The development entity is there and targetable: the 404 was about this environment.
        expect((await patch(h, 'ghost', update, h.envs.development.id)).status).toBe(200);
      });

      it('once the entity is upserted, the same PATCH answers 200 and targets it', async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        expectError(await patch(h, 'late', update), 404, 'not_found');
        const before = await versions(h);
        await upsert(h, 'late');
        expect(await versions(h)).toEqual(before);
        const res = await patch(h, 'late', update);
        expect(res.status).toBe(200);
        expectSchema(UpdateEntityFlagsResponseSchema, res.body);
        expect(res.body.data[0]).toMatchObject({ key: 'k', value: true, specificTargetValue: true });
        expect(res.body.flagStateVersion).toBe(before[h.envs.production.id]! + 1);
        const read = await h.request('GET', path(h, 'late'));
        expect(read.status).toBe(200);
        expect(read.body.data[0]).toMatchObject({ key: 'k', value: true, specificTargetValue: true });
      });

      it(`an entity stored by the runtime API (POST /${kind.type}, /bulk) can be read and targeted`, async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        const idField = kind.type === 'user' ? 'userId' : 'companyId';
        const sdk = { key: h.envs.production.secretKey };
        expect((await h.request('POST', `/${kind.type}`, { ...sdk, body: { [idField]: 'via-post' } })).status).toBe(200);
        expect((await h.request('POST', '/bulk', { ...sdk, body: [{ type: kind.type, [idField]: 'via-bulk' }] })).status).toBe(200);
        for (const id of ['via-post', 'via-bulk']) {
          expect((await h.request('GET', path(h, id))).status, id).toBe(200);
          expect((await patch(h, id, update)).body.data[0], id).toMatchObject({ key: 'k', specificTargetValue: true });
        }
      });

      it(`after DELETE of the ${kind.type}, its flags are 404 again`, async () => {
        const h = harness();
        await createFlag(h, { key: 'k' });
        await upsert(h, 'gone');
        expect((await patch(h, 'gone', update)).status).toBe(200);
        expect((await h.request('GET', path(h, 'gone'))).status).toBe(200);
        expect((await h.request('DELETE', entityPath(h, 'gone'))).status).toBe(200);
        await expectNothingStored(h, async () => {
          expectError(await h.request('GET', path(h, 'gone')), 404, 'not_found');
          expectError(await patch(h, 'gone', update), 404, 'not_found');
        });
      });
    });
  }
});
