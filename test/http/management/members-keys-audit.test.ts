import { describe, expect, it } from 'vitest';
import { ListAuditResponseSchema } from '../../../packages/core/src/schemas/audit.js';
import {
  CreateManagementKeyResponseSchema,
  ListManagementKeysResponseSchema,
  ManagementKeySchema,
} from '../../../packages/core/src/schemas/management-key.js';
import { ListMembersResponseSchema, UserHeaderSchema } from '../../../packages/core/src/schemas/member.js';
import { forEachAdapter } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, otherOrganization, str } from './support/management.js';

forEachAdapter((harness) => {
  describe('members (extension)', () => {
    it('creates, replaces, reads and lists members; avatarUrl omitted when absent', async () => {
      const h = harness();
      const created = await h.request('PUT', '/members/u-1', { body: { name: 'Ada', email: 'ada@example.com' } });
      expect(created.status).toBe(200);
      expectSchema(UserHeaderSchema, created.body);
      expect(created.body).toEqual({ id: 'u-1', name: 'Ada', email: 'ada@example.com' });
      const replaced = await h.request('PUT', '/members/u-1', { body: { name: 'Ada L.', email: 'ada@example.com', avatarUrl: 'https://example.com/a.png' } });
      expect(replaced.body.avatarUrl).toBe('https://example.com/a.png');
      expect((await h.request('GET', '/members/u-1')).body.name).toBe('Ada L.');
      const list = await h.request('GET', '/members');
      expectSchema(ListMembersResponseSchema, list.body);
      expect(list.body.data).toHaveLength(1);
      expectError(await h.request('GET', '/members/nobody'), 404, 'not_found');
    });

    it('validates the member, storing nothing; another organisation cannot see or take the id', async () => {
      const h = harness();
      await expectNothingStored(h, async () => {
        expectError(await h.request('PUT', '/members/u', { body: { name: 'A', email: 'not-an-email' } }), 400, 'invalid_request', 'email');
        expectError(await h.request('PUT', '/members/u', { body: { name: '', email: 'a@b.co' } }), 400, 'invalid_request', 'name');
        expectError(await h.request('PUT', '/members/u', { body: { name: 'A', email: 'a@b.co', avatarUrl: 'not a url' } }), 400, 'invalid_request', 'avatarUrl');
        expectError(await h.request('PUT', `/members/${str(129)}`, { body: { name: 'A', email: 'a@b.co' } }), 400, 'invalid_request', 'memberId');
      });
      await h.request('PUT', '/members/shared', { body: { name: 'Mine', email: 'm@x.io' } });
      const other = await otherOrganization(h);
      expectError(await h.request('GET', '/members/shared', { key: other.key }), 404, 'not_found');
      expectError(await h.request('PUT', '/members/shared', { key: other.key, body: { name: 'Theirs', email: 't@x.io' } }), 404, 'not_found');
      expect((await h.request('GET', '/members', { key: other.key })).body.data).toEqual([]);
    });
  });

  describe('management keys (extension)', () => {
    it('creates a key (secret shown once, stored hashed), lists and revokes it', async () => {
      const h = harness();
      const created = await h.request('POST', '/keys', { body: { name: 'CI', scopes: ['read', 'write:flags'] } });
      expect(created.status).toBe(200);
      expectSchema(CreateManagementKeyResponseSchema, created.body);
      const { key, secret } = created.body;
      expect(JSON.stringify(await h.dump())).not.toContain(secret);
      expect((await h.request('GET', '/apps', { key: secret })).status).toBe(200);
      const list = await h.request('GET', '/keys');
      expectSchema(ListManagementKeysResponseSchema, list.body);
      expect(list.body.data.map((k: { id: string }) => k.id)).toContain(key.id);
      expect(JSON.stringify(list.body)).not.toContain(secret);
      const revoked = await h.request('DELETE', `/keys/${key.id}`);
      expectSchema(ManagementKeySchema, revoked.body);
      expect(revoked.body.revokedAt).not.toBeNull();
      expectError(await h.request('GET', '/apps', { key: secret }), 401, 'unauthenticated');
      expect((await h.request('DELETE', `/keys/${key.id}`)).status).toBe(200);
    });

    it('validates scopes and names, refuses revoking the last admin key, 404 for other keys', async () => {
      const h = harness();
      const other = await otherOrganization(h);
      const otherKeyId = (await h.request('GET', '/keys', { key: other.key })).body.data[0].id;
      const ownId = (await h.request('GET', '/keys')).body.data[0].id;
      await expectNothingStored(h, async () => {
        expectError(await h.request('POST', '/keys', { body: { name: 'x', scopes: [] } }), 400, 'invalid_request', 'scopes');
        expectError(await h.request('POST', '/keys', { body: { name: 'x', scopes: ['root'] } }), 400, 'invalid_request', 'scopes.0');
        expectError(await h.request('POST', '/keys', { body: { name: 'x', scopes: ['read', 'read'] } }), 400, 'invalid_request', 'scopes');
        expectError(await h.request('POST', '/keys', { body: { name: '', scopes: ['read'] } }), 400, 'invalid_request', 'name');
        expectError(await h.request('DELETE', `/keys/${otherKeyId}`), 404, 'not_found');
        expectError(await h.request('DELETE', '/keys/mknope'), 404, 'not_found');
        expectError(await h.request('DELETE', `/keys/${ownId}`), 400, 'not_possible');
      });
    });
  });

  describe('GET /apps/{appId}/audit (extension)', () => {
    it('lists entries newest first with a cursor', async () => {
      const h = harness();
      for (const key of ['a', 'b', 'c']) await createFlag(h, { key });
      const first = await h.request('GET', `/apps/${h.appId}/audit`, { query: { limit: 2 } });
      expect(first.status).toBe(200);
      expectSchema(ListAuditResponseSchema, first.body);
      expect(first.body.data.map((e: { after: { key: string } }) => e.after.key)).toEqual(['c', 'b']);
      expect(first.body.data[0]).toMatchObject({ action: 'flag.created', targetType: 'flag', appId: h.appId, actor: expect.any(String) });
      const second = await h.request('GET', `/apps/${h.appId}/audit`, { query: { limit: 2, before: first.body.nextCursor } });
      expect(second.body.data.map((e: { after: { key: string } }) => e.after.key)).toEqual(['a']);
      expect(second.body.nextCursor).toBeNull();
    });

    it('validates limit (1..500) and cursor; never shows SDK keys', async () => {
      const h = harness();
      await h.request('POST', `/apps/${h.appId}/environments/${h.envs.production.id}/rotate-keys`, { body: { which: 'both' } });
      await h.request('POST', `/apps/${h.appId}/environments`, { body: { name: 'Staging' } });
      const res = await h.request('GET', `/apps/${h.appId}/audit`, { query: { limit: 500 } });
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/sec_fm_|pub_fm_/);
      expectError(await h.request('GET', `/apps/${h.appId}/audit`, { query: { limit: 501 } }), 400, 'invalid_request', 'limit');
      expectError(await h.request('GET', `/apps/${h.appId}/audit`, { query: { limit: 0 } }), 400, 'invalid_request', 'limit');
      expectError(await h.request('GET', `/apps/${h.appId}/audit`, { query: { before: 'garbage' } }), 400, 'invalid_request', 'before');
      expectError(await h.request('GET', '/apps/apnope/audit'), 404, 'not_found');
    });
  });

  describe('GET /audit (extension)', () => {
    it("lists the organisation's entries, those of no app (keys, members) included; never another organisation's", async () => {
      const h = harness();
      await createFlag(h, { key: 'in-app' });
      const created = await h.request('POST', '/keys', { body: { name: 'ci', scopes: ['read'] } });
      expect((await h.request('DELETE', `/keys/${created.body.key.id}`)).status).toBe(200);
      await h.request('PUT', '/members/m-audit', { body: { name: 'M', email: 'm@x.io' } });
      const res = await h.request('GET', '/audit', { query: { limit: 4 } });
      expect(res.status).toBe(200);
      expectSchema(ListAuditResponseSchema, res.body);
      expect(res.body.data.map((e: { action: string }) => e.action)).toEqual(['member.created', 'managementKey.revoked', 'managementKey.created', 'flag.created']);
      expect(res.body.data.slice(0, 3).every((e: { appId: string | null }) => e.appId === null)).toBe(true);
      expect(res.text).not.toContain(created.body.secret);
      const other = await otherOrganization(h);
      const theirs = await h.request('GET', '/audit', { key: other.key });
      expect(theirs.status).toBe(200);
      expect(theirs.body.data).toEqual([]);
      const firstTwo = await h.request('GET', '/audit', { query: { limit: 2 } });
      const next = await h.request('GET', '/audit', { query: { limit: 2, before: firstTwo.body.nextCursor } });
      expect(next.body.data.map((e: { action: string }) => e.action)).toEqual(['managementKey.created', 'flag.created']);
      expectError(await h.request('GET', '/audit', { query: { limit: 501 } }), 400, 'invalid_request', 'limit');
    });
  });
});

// A clock that stands still: every entry has the same createdAt, so only the id keeps the order of the writes.
forEachAdapter(
  (harness) => {
    describe('audit order within one instant', () => {
      it('concurrent mutations list newest first, in the order they committed', async () => {
        const h = harness();
        const created = await Promise.all(Array.from({ length: 30 }, (_, i) => createFlag(h, { key: `f${i}` })));
        // The version each create answers is the order of the commits.
        const committed = created
          .map((r) => ({ key: r.body.flag.key as string, version: r.body.flagStateVersions[h.envs.production.id] as number }))
          .sort((a, b) => a.version - b.version)
          .map((c) => c.key);
        const listed = (await h.request('GET', `/apps/${h.appId}/audit`, { query: { limit: 100 } })).body.data
          .filter((e: { action: string }) => e.action === 'flag.created')
          .map((e: { after: { key: string } }) => e.after.key);
        expect(listed).toEqual([...committed].reverse());
      });
    });
  },
  { options: { now: () => new Date('2026-01-01T00:00:00.000Z') } },
);
