import { describe, expect, it } from 'vitest';
import { AppSchema, ListAppsResponseSchema } from '../../../packages/core/src/schemas/app.js';
import { forEachAdapter } from '../support/harness.js';
import { expectError, expectNothingStored, expectSchema, otherOrganization, str } from './support/management.js';

forEachAdapter((harness) => {
  describe('GET /apps (row 1)', () => {
    it('lists the apps of the key organisation with environment headers', async () => {
      const h = harness();
      const res = await h.request('GET', '/apps');
      expect(res.status).toBe(200);
      expectSchema(ListAppsResponseSchema, res.body);
      expect(res.body.data).toHaveLength(1);
      const [app] = res.body.data;
      expect(app).toMatchObject({ id: h.appId, org: { id: h.orgId }, demo: false, flagKeyFormat: 'custom' });
      expect(app.environments.map((e: { name: string }) => e.name)).toEqual(['Development', 'Production']);
      expect(app.environments[1]).toEqual({ id: h.envs.production.id, name: 'Production', isProduction: true, order: 1, flagStateVersion: 0 });
    });

    it('filters by orgId and never shows another organisation', async () => {
      const h = harness();
      const other = await otherOrganization(h);
      expect((await h.request('GET', '/apps', { query: { orgId: h.orgId } })).body.data).toHaveLength(1);
      expect((await h.request('GET', '/apps', { query: { orgId: other.orgId } })).body.data).toEqual([]);
      const theirs = await h.request('GET', '/apps', { key: other.key });
      expect(theirs.body.data.map((a: { id: string }) => a.id)).toEqual([other.appId]);
    });

    it('rejects an empty orgId', async () => {
      expectError(await harness().request('GET', '/apps', { query: { orgId: '' } }), 400, 'invalid_request', 'orgId');
    });
  });

  describe('GET /apps/{appId} (row 2)', () => {
    it('returns environments with sdkAccess, stages and segments', async () => {
      const h = harness();
      const res = await h.request('GET', `/apps/${h.appId}`);
      expect(res.status).toBe(200);
      expectSchema(AppSchema, res.body);
      expect(res.body.environments[0].sdkAccess).toEqual({
        publishableKey: h.envs.development.publishableKey,
        secretKey: h.envs.development.secretKey,
      });
      expect(res.body.stages).toHaveLength(4);
      expect(res.body.segments).toEqual([{ id: expect.any(String), name: 'All', type: 'all' }]);
    });

    it('404 for an unknown app, 401 for an app of another organisation', async () => {
      const h = harness();
      expectError(await h.request('GET', '/apps/apnope'), 404, 'not_found');
      const other = await otherOrganization(h);
      expectError(await h.request('GET', `/apps/${other.appId}`), 401, 'unauthenticated');
      expectError(await h.request('GET', `/apps/${h.appId}`, { key: other.key }), 401, 'unauthenticated');
    });
  });

  describe('POST /apps and PATCH /apps/{appId} (extension)', () => {
    it('creates a usable app with two environments, stages and the All segment', async () => {
      const h = harness();
      const res = await h.request('POST', '/apps', { body: { name: 'Second', flagKeyFormat: 'kebabCaseLower' } });
      expect(res.status).toBe(200);
      expectSchema(AppSchema, res.body);
      expect(res.body).toMatchObject({ name: 'Second', flagKeyFormat: 'kebabCaseLower', demo: false, org: { id: h.orgId } });
      expect(res.body.environments.map((e: { name: string; isProduction: boolean }) => [e.name, e.isProduction])).toEqual([
        ['Development', false],
        ['Production', true],
      ]);
      // The new SDK key works at once on the runtime API.
      const features = await h.request('GET', '/features', { key: res.body.environments[0].sdkAccess.secretKey });
      expect(features.status).toBe(200);
      expect((await h.request('GET', '/apps')).body.data).toHaveLength(2);
    });

    it('validates names (1..255) and flagKeyFormat, storing nothing on 400', async () => {
      const h = harness();
      expect((await h.request('POST', '/apps', { body: { name: str(255) } })).status).toBe(200);
      await expectNothingStored(h, async () => {
        expectError(await h.request('POST', '/apps', { body: { name: str(256) } }), 400, 'invalid_request', 'name');
        expectError(await h.request('POST', '/apps', { body: { name: '' } }), 400, 'invalid_request', 'name');
        expectError(await h.request('POST', '/apps', { body: { name: 'x', flagKeyFormat: 'UPPER' } }), 400, 'invalid_request', 'flagKeyFormat');
        expectError(await h.request('POST', '/apps', { body: { name: 'x', extra: 1 } }), 400, 'invalid_request');
      });
    });

    it('updates name, flagKeyFormat and demo without moving versions', async () => {
      const h = harness();
      const res = await h.request('PATCH', `/apps/${h.appId}`, { body: { name: 'Renamed', flagKeyFormat: 'camelCase', demo: true } });
      expect(res.status).toBe(200);
      expectSchema(AppSchema, res.body);
      expect(res.body).toMatchObject({ name: 'Renamed', flagKeyFormat: 'camelCase', demo: true });
      expect(res.body.environments.map((e: { flagStateVersion: number }) => e.flagStateVersion)).toEqual([0, 0]);
      await expectNothingStored(h, async () => {
        expect((await h.request('PATCH', `/apps/${h.appId}`, { body: { name: 'Renamed' } })).status).toBe(200);
      });
      expectError(await h.request('PATCH', '/apps/apnope', { body: { name: 'x' } }), 404, 'not_found');
    });
  });
});
