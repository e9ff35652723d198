import type { ManagementScope, RouteDefinition } from '@flagmount/core';
import { describe, expect, it } from 'vitest';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, keyWithScopes, otherOrganization } from './support/management.js';

const SCOPES: ManagementScope[] = ['read', 'write:flags', 'write:flag:targeting', 'write:entities', 'admin'];

/** Every management route with its path filled with ids that exist in the harness app. */
async function concreteRoutes(h: Harness): Promise<Array<{ route: RouteDefinition; path: string }>> {
  const { flag } = (await createFlag(h, { key: 'k' })).body;
  const app = (await h.request('GET', `/apps/${h.appId}`)).body;
  const keys = (await h.request('GET', '/keys')).body.data;
  // The user and company the entity routes address are stored, so their flags routes reach past the 404.
  for (const entity of ['users/u1', 'companies/c1']) {
    const res = await h.request('PUT', `/apps/${h.appId}/envs/${h.envs.production.id}/${entity}`, { body: {} });
    expect(res.status, res.text).toBe(200);
  }
  const ids: Record<string, string> = {
    appId: h.appId,
    envId: h.envs.production.id,
    flagId: flag.id,
    flagKey: 'k',
    userId: 'u1',
    companyId: 'c1',
    stageId: app.stages[0].id,
    segmentId: app.segments[0].id,
    memberId: 'm1',
    keyId: keys[0].id,
  };
  return h.instance.routes
    .filter((route) => route.auth.kind === 'management')
    .map((route) => ({ route, path: route.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? name) }));
}

/** A JSON body for writes; none for GET and DELETE. */
const bodyFor = (route: RouteDefinition) => (route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} });

const requiredScope = (route: RouteDefinition) => (route.auth.kind === 'management' ? route.auth.scope : undefined);

forEachAdapter((harness) => {
  describe('management authentication and scopes', () => {
    it('documents the scope of every route: read for GET, admin for apps/envs/stages/segments/members/keys writes', async () => {
      const h = harness();
      const table = Object.fromEntries((await concreteRoutes(h)).map(({ route }) => [`${route.method} ${route.path}`, requiredScope(route)]));
      // GET /me answers any valid caller: a key of any scope learns who it is.
      for (const [name, scope] of Object.entries(table)) if (name.startsWith('GET ') && name !== 'GET /me') expect(scope, name).toBe('read');
      expect(table).toMatchObject({
        'GET /me': 'any',
        'POST /apps/{appId}/flags': 'write:flags',
        'PATCH /apps/{appId}/flags/{flagId}': 'write:flags',
        'PATCH /apps/{appId}/envs/{envId}/users/{userId}/flags': 'write:flag:targeting',
        'PATCH /apps/{appId}/envs/{envId}/companies/{companyId}/flags': 'write:flag:targeting',
        'PUT /apps/{appId}/flags/{flagKey}/targeting/{envId}': 'write:flag:targeting',
        'PUT /apps/{appId}/envs/{envId}/users/{userId}': 'write:entities',
        'DELETE /apps/{appId}/envs/{envId}/companies/{companyId}': 'write:entities',
        'POST /apps': 'admin',
        'PATCH /apps/{appId}': 'admin',
        'POST /apps/{appId}/environments': 'admin',
        'POST /apps/{appId}/environments/{envId}/rotate-keys': 'admin',
        'POST /apps/{appId}/stages': 'admin',
        'DELETE /apps/{appId}/segments/{segmentId}': 'admin',
        'PUT /members/{memberId}': 'admin',
        'POST /keys': 'admin',
        'DELETE /keys/{keyId}': 'admin',
      });
    });

    it('401 unauthenticated without a key, with an unknown key, an SDK key or a revoked key; nothing stored', async () => {
      const h = harness();
      const routes = await concreteRoutes(h);
      const revoked = await keyWithScopes(h, ['admin']);
      await h.storage.managementKeys.update((await h.storage.managementKeys.getByHash((await import('../../../packages/core/src/security/secrets.js')).sha256Hex(revoked)))!.id, { revokedAt: new Date().toISOString() });
      await expectNothingStored(h, async () => {
        for (const { route, path } of routes) {
          for (const key of [null, 'fmk_unknown', h.envs.production.secretKey, h.envs.production.publishableKey, revoked]) {
            const res = await h.request(route.method, path, { key, ...bodyFor(route) });
            expectError(res, 401, 'unauthenticated');
            // RFC 9110 §15.5.2: a 401 names the scheme it wants.
            expect(res.headers.get('www-authenticate')).toBe('Bearer realm="flagmount"');
          }
        }
        expectError(await h.request('GET', '/apps', { key: null, headers: { authorization: 'Basic abc' } }), 401, 'unauthenticated');
      });
    });

    it('403 unauthorized for a key lacking the route scope (nothing stored); admin holds every scope', async () => {
      const h = harness();
      const routes = await concreteRoutes(h);
      const keys = Object.fromEntries(await Promise.all(SCOPES.map(async (s) => [s, await keyWithScopes(h, [s])] as const)));
      await expectNothingStored(h, async () => {
        for (const { route, path } of routes) {
          for (const scope of SCOPES) {
            if (scope === 'admin' || scope === requiredScope(route) || requiredScope(route) === 'any') continue;
            const res = await h.request(route.method, path, { key: keys[scope], ...bodyFor(route) });
            expectError(res, 403, 'unauthorized');
          }
        }
      });
      for (const { route, path } of routes) {
        for (const key of [keys['admin']!, keys[requiredScope(route)!]!]) {
          const res = await h.request(route.method, path, { key, ...bodyFor(route) });
          expect([401, 403], `${route.method} ${path}`).not.toContain(res.status);
        }
      }
    });

    it("one organisation's key never reads or writes another's app (401), and sees none of its data", async () => {
      const h = harness();
      const routes = (await concreteRoutes(h)).filter(({ route }) => route.path.startsWith('/apps/{appId}'));
      const other = await otherOrganization(h);
      await expectNothingStored(h, async () => {
        for (const { route, path } of routes) {
          // Bodies are validated before the app is resolved: an invalid body is a 400 that reveals nothing.
          const expected = route.method === 'GET' || route.method === 'DELETE' ? [401] : [400, 401];
          expect(expected).toContain((await h.request(route.method, path, { key: other.key, ...bodyFor(route) })).status);
          const theirs = path.replace(h.appId, other.appId);
          expect(expected).toContain((await h.request(route.method, theirs, bodyFor(route))).status);
        }
        // With valid bodies, every write is refused as unauthenticated.
        const writes: Array<[string, string, unknown]> = [
          ['POST', `/apps/${other.appId}/flags`, { key: 'x', name: 'x' }],
          ['PATCH', `/apps/${other.appId}/flags/flotherflag001`, { name: 'x' }],
          ['PATCH', `/apps/${other.appId}/envs/${other.envId}/users/u/flags`, { updates: [{ flagKey: 'other-flag', specificTargetValue: true }] }],
          ['PUT', `/apps/${other.appId}/flags/other-flag/targeting/${other.envId}`, { rules: [] }],
          ['PUT', `/apps/${other.appId}/envs/${other.envId}/users/u`, { attributes: { a: 1 } }],
          ['PATCH', `/apps/${other.appId}`, { name: 'mine now' }],
          ['POST', `/apps/${other.appId}/environments`, { name: 'Mine' }],
          ['POST', `/apps/${other.appId}/environments/${other.envId}/rotate-keys`, { which: 'both' }],
        ];
        for (const [method, path, body] of writes) expectError(await h.request(method, path, { body }), 401, 'unauthenticated');
      });
      const mine = JSON.stringify((await h.request('GET', '/apps')).body) + JSON.stringify((await h.request('GET', '/keys')).body);
      expect(mine).not.toContain(other.appId);
      expect(mine).not.toContain(other.orgId);
      const theirs = JSON.stringify((await h.request('GET', '/apps', { key: other.key })).body);
      expect(theirs).not.toContain(h.appId);
    });

    it("an app's path never reaches another app's environment or flag (404)", async () => {
      const h = harness();
      const second = (await h.request('POST', '/apps', { body: { name: 'Second' } })).body;
      const { flag } = (await createFlag(h, { key: 'theirs' }, second.id)).body;
      const env = second.environments[0].id;
      await expectNothingStored(h, async () => {
        expectError(await h.request('GET', `/apps/${h.appId}/environments/${env}`), 404, 'not_found');
        expectError(await h.request('GET', `/apps/${h.appId}/envs/${env}/users/u/flags`), 404, 'not_found');
        expectError(await h.request('PATCH', `/apps/${h.appId}/envs/${env}/users/u/flags`, { body: { updates: [{ flagKey: 'theirs', specificTargetValue: true }] } }), 404, 'not_found');
        expectError(await h.request('PATCH', `/apps/${h.appId}/flags/${flag.id}`, { body: { name: 'x' } }), 404, 'not_found');
        expectError(await h.request('GET', `/apps/${h.appId}/flags/theirs/targeting/${h.envs.production.id}`), 404, 'not_found');
        expectError(await h.request('GET', `/apps/${h.appId}/segments/${second.segments[0].id}`), 404, 'not_found');
        expectError(await h.request('DELETE', `/apps/${h.appId}/stages/${second.stages[0].id}`), 404, 'not_found');
      });
      const flags = (await h.request('GET', `/apps/${h.appId}/flags`)).body.data.map((f: { key: string }) => f.key);
      expect(flags).not.toContain('theirs');
    });
  });
});
