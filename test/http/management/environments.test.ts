import { describe, expect, it } from 'vitest';
import { EnvironmentSchema, ListEnvironmentsResponseSchema } from '../../../packages/core/src/schemas/environment.js';
import { forEachAdapter } from '../support/harness.js';
import { expectError, expectNothingStored, expectSchema, otherOrganization, str } from './support/management.js';

forEachAdapter((harness) => {
  describe('GET /apps/{appId}/environments (row 4)', () => {
    it('defaults to sortBy=order, sortOrder=asc and echoes both', async () => {
      const h = harness();
      const res = await h.request('GET', `/apps/${h.appId}/environments`);
      expect(res.status).toBe(200);
      expectSchema(ListEnvironmentsResponseSchema, res.body);
      expect(res.body.sortBy).toBe('order');
      expect(res.body.sortOrder).toBe('asc');
      expect(res.body.data.map((e: { name: string }) => e.name)).toEqual(['Development', 'Production']);
      expect(res.body.data[0]).not.toHaveProperty('sdkAccess');
    });

    it('sorts by name and order, both directions', async () => {
      const h = harness();
      await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: 'acceptance' } });
      const names = async (query: Record<string, string>) => {
        const res = await h.request('GET', `/apps/${h.appId}/environments`, { query });
        expect(res.body).toMatchObject(query);
        return res.body.data.map((e: { name: string }) => e.name);
      };
      expect(await names({ sortBy: 'order', sortOrder: 'desc' })).toEqual(['acceptance', 'Production', 'Development']);
      expect(await names({ sortBy: 'name', sortOrder: 'asc' })).toEqual(['acceptance', 'Development', 'Production']);
      expect(await names({ sortBy: 'name', sortOrder: 'desc' })).toEqual(['Production', 'Development', 'acceptance']);
    });

    it('rejects unknown sort values', async () => {
      const h = harness();
      expectError(await h.request('GET', `/apps/${h.appId}/environments`, { query: { sortBy: 'id' } }), 400, 'invalid_request', 'sortBy');
      expectError(await h.request('GET', `/apps/${h.appId}/environments`, { query: { sortOrder: 'up' } }), 400, 'invalid_request', 'sortOrder');
      expectError(await h.request('GET', '/apps/apnope/environments'), 404, 'not_found');
    });
  });

  describe('GET /apps/{appId}/environments/{envId} (row 5)', () => {
    it('returns the environment with sdkAccess', async () => {
      const h = harness();
      const res = await h.request('GET', `/apps/${h.appId}/environments/${h.envs.production.id}`);
      expect(res.status).toBe(200);
      expectSchema(EnvironmentSchema, res.body);
      expect(res.body).toEqual({
        id: h.envs.production.id,
        name: 'Production',
        isProduction: true,
        order: 1,
        flagStateVersion: 0,
        sdkAccess: { publishableKey: h.envs.production.publishableKey, secretKey: h.envs.production.secretKey },
      });
    });

    it('404 for an unknown environment or one of another app', async () => {
      const h = harness();
      expectError(await h.request('GET', `/apps/${h.appId}/environments/ennope`), 404, 'not_found');
      const other = await otherOrganization(h);
      expectError(await h.request('GET', `/apps/${h.appId}/environments/${other.envId}`), 404, 'not_found');
      const second = await h.request('POST', '/apps', { body: { name: 'Second' } });
      expectError(await h.request('GET', `/apps/${h.appId}/environments/${second.body.environments[0].id}`), 404, 'not_found');
    });
  });

  describe('environment extension routes', () => {
    it('creates an environment at the end with fresh 36-character keys that work at once', async () => {
      const h = harness();
      const res = await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: 'Staging' } });
      expect(res.status).toBe(200);
      expectSchema(EnvironmentSchema, res.body);
      expect(res.body).toMatchObject({ name: 'Staging', isProduction: false, order: 2, flagStateVersion: 0 });
      expect(res.body.sdkAccess.secretKey).toHaveLength(36);
      expect(res.body.sdkAccess.publishableKey).toHaveLength(36);
      expect((await h.request('GET', '/features', { key: res.body.sdkAccess.secretKey })).status).toBe(200);
    });

    it('inserts at a position and renumbers the others', async () => {
      const h = harness();
      const res = await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: 'First', order: 0 } });
      expect(res.body.order).toBe(0);
      const list = await h.request('GET', `/apps/${h.appId}/environments`);
      expect(list.body.data.map((e: { name: string; order: number }) => [e.name, e.order])).toEqual([
        ['First', 0],
        ['Development', 1],
        ['Production', 2],
      ]);
    });

    it('refuses duplicate names, positions past the end and bad bodies, storing nothing', async () => {
      const h = harness();
      await expectNothingStored(h, async () => {
        expectError(await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: 'production' } }), 400, 'not_possible', 'name');
        expectError(await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: 'X', order: 3 } }), 400, 'not_possible', 'order');
        expectError(await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: str(256) } }), 400, 'invalid_request', 'name');
        expectError(await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: 'X', order: -1 } }), 400, 'invalid_request', 'order');
        // Past 2^53 the number read is no longer the one sent: refused rather than stored as another.
        for (const rawBody of ['{"name":"X","order":9007199254740993}', '{"name":"X","order":1e20}']) {
          expectError(await h.request('POST', `/apps/${h.appId}/environments`, { rawBody }), 400, 'invalid_request', 'order');
          expectError(await h.request('POST', `/apps/${h.appId}/stages`, { rawBody: rawBody.replace('"X"', '"S","color":"red"') }), 400, 'invalid_request', 'order');
        }
        expectError(await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: 'X', color: 'red' } }), 400, 'invalid_request');
        expectError(await h.request('PATCH', `/apps/${h.appId}/environments/${h.envs.development.id}`, { body: { order: 2 } }), 400, 'not_possible');
      });
    });

    it('updates name, isProduction and order without bumping flag state', async () => {
      const h = harness();
      const res = await h.request('PATCH', `/apps/${h.appId}/environments/${h.envs.development.id}`, {
        body: { name: 'Dev', isProduction: true, order: 1 },
      });
      expect(res.status).toBe(200);
      expectSchema(EnvironmentSchema, res.body);
      expect(res.body).toMatchObject({ name: 'Dev', isProduction: true, order: 1, flagStateVersion: 0 });
      const prod = await h.request('GET', `/apps/${h.appId}/environments/${h.envs.production.id}`);
      expect(prod.body.order).toBe(0);
      await expectNothingStored(h, async () => {
        expect((await h.request('PATCH', `/apps/${h.appId}/environments/${h.envs.development.id}`, { body: { name: 'Dev' } })).status).toBe(200);
      });
    });

    it('rotates keys: the old key stops working, the new one works, the version stays', async () => {
      const h = harness();
      const path = `/apps/${h.appId}/environments/${h.envs.production.id}/rotate-keys`;
      const res = await h.request('POST', path, { body: { which: 'secret' } });
      expect(res.status).toBe(200);
      expectSchema(EnvironmentSchema, res.body);
      expect(res.body.sdkAccess.publishableKey).toBe(h.envs.production.publishableKey);
      expect(res.body.sdkAccess.secretKey).not.toBe(h.envs.production.secretKey);
      expect(res.body.flagStateVersion).toBe(0);
      expect((await h.request('GET', '/features', { key: h.envs.production.secretKey })).status).toBe(403);
      expect((await h.request('GET', '/features', { key: res.body.sdkAccess.secretKey })).status).toBe(200);
      const both = await h.request('POST', path, { body: { which: 'both' } });
      expect(both.body.sdkAccess.publishableKey).not.toBe(h.envs.production.publishableKey);
      expect(both.body.sdkAccess.secretKey).not.toBe(res.body.sdkAccess.secretKey);
      expectError(await h.request('POST', path, { body: { which: 'all' } }), 400, 'invalid_request', 'which');
      expectError(await h.request('POST', path, { body: {} }), 400, 'invalid_request');
    });
  });
});
