import { describe, expect, it } from 'vitest';
import { DeleteEntityResponseSchema, EntitySchema } from '../../../packages/core/src/schemas/entity-flag.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, str, versions } from './support/management.js';

forEachAdapter((harness) => {
  const base = (h: Harness, segment: 'users' | 'companies', envId = h.envs.production.id) => `/apps/${h.appId}/envs/${envId}/${segment}`;

  describe('PUT …/users/{userId} and …/companies/{companyId} (entity upsert)', () => {
    for (const segment of ['users', 'companies'] as const) {
      it(`${segment}: creates, merges attributes, keeps or clears the name, never bumps`, async () => {
        const h = harness();
        const before = await versions(h);
        const created = await h.request('PUT', `${base(h, segment)}/e1`, { body: { name: 'Acme', attributes: { plan: 'pro', seats: 3 } } });
        expect(created.status).toBe(200);
        expectSchema(EntitySchema, created.body);
        expect(created.body).toMatchObject({ id: 'e1', name: 'Acme', attributes: { plan: 'pro', seats: 3 } });
        const merged = await h.request('PUT', `${base(h, segment)}/e1`, { body: { attributes: { seats: 5, region: 'eu' } } });
        expect(merged.body).toMatchObject({ id: 'e1', name: 'Acme', attributes: { plan: 'pro', seats: 5, region: 'eu' }, createdAt: created.body.createdAt });
        const cleared = await h.request('PUT', `${base(h, segment)}/e1`, { body: { name: null } });
        expect(cleared.body.name).toBeNull();
        expect((await h.request('PUT', `${base(h, segment)}/e2`, { body: {} })).status).toBe(200);
        expect(await versions(h)).toEqual(before);
      });

      it(`${segment}: GET reads one stored entity (404 for one never stored, or in another environment)`, async () => {
        const h = harness();
        await h.request('PUT', `${base(h, segment)}/e1`, { body: { name: 'Acme', attributes: { plan: 'pro' } } });
        const read = await h.request('GET', `${base(h, segment)}/e1`);
        expect(read.status, read.text).toBe(200);
        expectSchema(EntitySchema, read.body);
        expect(read.body).toMatchObject({ id: 'e1', name: 'Acme', attributes: { plan: 'pro' } });
        expectError(await h.request('GET', `${base(h, segment)}/nobody`), 404, 'not_found');
        expectError(await h.request('GET', `${base(h, segment, h.envs.development.id)}/e1`), 404, 'not_found');
      });

      it(`${segment}: GET the list searches by id prefix or name, pages by id`, async () => {
        const h = harness();
        for (const [id, name] of [['e-2', 'Grace'], ['e-1', 'Ada'], ['other', 'Adams']] as const) {
          await h.request('PUT', `${base(h, segment)}/${id}`, { body: { name } });
        }
        await h.request('PUT', `${base(h, segment, h.envs.development.id)}/e-3`, { body: {} });
        const list = async (query: Record<string, string | number>) => {
          const res = await h.request('GET', base(h, segment), { query });
          expect(res.status, res.text).toBe(200);
          return { ids: res.body.data.map((e: { id: string }) => e.id), next: res.body.nextCursor };
        };
        expect(await list({})).toEqual({ ids: ['e-1', 'e-2', 'other'], next: null });
        expect(await list({ search: 'E-' })).toEqual({ ids: ['e-1', 'e-2'], next: null });
        expect(await list({ search: 'ada' })).toEqual({ ids: ['e-1', 'other'], next: null });
        expect(await list({ limit: 2 })).toEqual({ ids: ['e-1', 'e-2'], next: 'e-2' });
        expect(await list({ limit: 2, after: 'e-2' })).toEqual({ ids: ['other'], next: null });
        expectError(await h.request('GET', base(h, segment), { query: { limit: 0 } }), 400, 'invalid_request', 'limit');
        expectError(await h.request('GET', base(h, segment, 'ennope')), 404, 'not_found');
      });

      it(`${segment}: validates id length and body, storing nothing`, async () => {
        const h = harness();
        expect((await h.request('PUT', `${base(h, segment)}/${str(128)}`, { body: {} })).status).toBe(200);
        await expectNothingStored(h, async () => {
          expectError(await h.request('PUT', `${base(h, segment)}/${str(129)}`, { body: {} }), 400, 'invalid_request');
          expectError(await h.request('PUT', `${base(h, segment)}/e1`, { body: { attributes: [1] } }), 400, 'invalid_request', 'attributes');
          expectError(await h.request('PUT', `${base(h, segment)}/e1`, { body: { name: 5 } }), 400, 'invalid_request', 'name');
          expectError(await h.request('PUT', `${base(h, segment)}/e1`, { body: { extra: 1 } }), 400, 'invalid_request');
          expectError(await h.request('PUT', `${base(h, segment, 'ennope')}/e1`, { body: {} }), 404, 'not_found');
        });
      });
    }

    it('management upserts and runtime POST /user write the same entity', async () => {
      const h = harness();
      await h.request('PUT', `${base(h, 'users')}/u1`, { body: { attributes: { a: 1 } } });
      const runtime = await h.request('POST', '/user', { key: h.envs.production.secretKey, body: { userId: 'u1', attributes: { b: 2 } } });
      expect(runtime.status).toBe(200);
      const stored = await h.storage.entities.get(h.envs.production.id, 'user', 'u1');
      expect(stored?.attributes).toMatchObject({ a: 1, b: 2 });
    });
  });

  describe('DELETE …/users/{userId} and …/companies/{companyId}', () => {
    it('deletes a user and its overrides, bumping the environment only when overrides went', async () => {
      const h = harness();
      await createFlag(h, { key: 'k' });
      await h.request('PUT', `${base(h, 'users')}/plain`, { body: {} });
      const v0 = (await versions(h))[h.envs.production.id]!;
      const plain = await h.request('DELETE', `${base(h, 'users')}/plain`);
      expect(plain.status).toBe(200);
      expectSchema(DeleteEntityResponseSchema, plain.body);
      expect(plain.body).toEqual({ id: 'plain', deleted: true, flagStateVersion: v0 });
      expect(await h.storage.entities.get(h.envs.production.id, 'user', 'plain')).toBeUndefined();

      expect((await h.request('PUT', `${base(h, 'users')}/vip`, { body: {} })).status).toBe(200);
      const targeted = await h.request('PATCH', `${base(h, 'users')}/vip/flags`, { body: { updates: [{ flagKey: 'k', specificTargetValue: true }] } });
      expect(targeted.status).toBe(200);
      const res = await h.request('DELETE', `${base(h, 'users')}/vip`);
      expect(res.body).toEqual({ id: 'vip', deleted: true, flagStateVersion: v0 + 2 });
      // The user is gone (its flags are 404 again), and so are its overrides: stored anew, it is not targeted.
      expectError(await h.request('GET', `${base(h, 'users')}/vip/flags`), 404, 'not_found');
      expect(await h.storage.specificTargets.listForEntity(h.envs.production.id, 'user', 'vip')).toEqual([]);
      await h.request('PUT', `${base(h, 'users')}/vip`, { body: {} });
      const flags = await h.request('GET', `${base(h, 'users')}/vip/flags`);
      expect(flags.body.data[0].specificTargetValue).toBeNull();
    });

    it('404 for an entity that does not exist, storing nothing', async () => {
      const h = harness();
      await expectNothingStored(h, async () => {
        expectError(await h.request('DELETE', `${base(h, 'users')}/ghost`), 404, 'not_found');
        expectError(await h.request('DELETE', `${base(h, 'companies')}/ghost`), 404, 'not_found');
        expectError(await h.request('DELETE', `${base(h, 'users')}/${str(129)}`), 400, 'invalid_request');
      });
    });

    it('deletes a company, and with ?deleteUsers=true its users too', async () => {
      const h = harness();
      for (const userId of ['u1', 'u2']) {
        await h.request('PUT', `${base(h, 'users')}/${userId}`, { body: { attributes: {} } });
        const r = await h.request('POST', '/company', { key: h.envs.production.secretKey, body: { companyId: 'c1', userId, attributes: {} } });
        expect(r.status).toBe(200);
        await h.request('POST', '/company', { key: h.envs.production.secretKey, body: { companyId: 'c2', userId, attributes: {} } });
      }
      const keep = await h.request('DELETE', `${base(h, 'companies')}/c2`);
      expectSchema(DeleteEntityResponseSchema, keep.body);
      expect(keep.body.deletedUserIds).toEqual([]);
      expect(await h.storage.entities.get(h.envs.production.id, 'user', 'u1')).toBeDefined();
      const res = await h.request('DELETE', `${base(h, 'companies')}/c1`, { query: { deleteUsers: true } });
      expect(res.status).toBe(200);
      expectSchema(DeleteEntityResponseSchema, res.body);
      expect(res.body.deletedUserIds).toEqual(['u1', 'u2']);
      expect(await h.storage.entities.get(h.envs.production.id, 'user', 'u1')).toBeUndefined();
      expect(await h.storage.entities.get(h.envs.production.id, 'company', 'c1')).toBeUndefined();
      expectError(await h.request('DELETE', `${base(h, 'companies')}/c9`, { query: { deleteUsers: 'perhaps' } }), 400, 'invalid_request', 'deleteUsers');
    });
  });
});
