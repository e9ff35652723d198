import { describe, expect, it } from 'vitest';
import { FlagMutationResponseSchema } from '../../../packages/core/src/schemas/flag.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, otherOrganization, str, versions } from './support/management.js';

async function stageId(h: Harness, index = 0): Promise<string> {
  return (await h.request('GET', `/apps/${h.appId}`)).body.stages[index].id;
}

async function addMember(h: Harness, id = 'u-1', avatarUrl?: string): Promise<void> {
  const res = await h.request('PUT', `/members/${id}`, { body: { name: 'Ada', email: 'ada@example.com', ...(avatarUrl ? { avatarUrl } : {}) } });
  expect(res.status).toBe(200);
}

const featureKeys = async (h: Harness, secretKey: string) =>
  ((await h.request('GET', '/features', { key: secretKey })).body.features as Array<{ key: string }>).map((f) => f.key);

forEachAdapter((harness) => {
  describe('POST /apps/{appId}/flags (row 6)', () => {
    it('creates a flag with defaults and bumps every environment exactly once', async () => {
      const h = harness();
      const before = await versions(h);
      const res = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'new-checkout', name: 'New checkout' } });
      expect(res.status).toBe(200);
      expectSchema(FlagMutationResponseSchema, res.body);
      const { flag, flagStateVersions } = res.body;
      expect(flag).toMatchObject({ key: 'new-checkout', name: 'New checkout', archived: false, permanent: false, stale: false, codeRefsCleanedUp: false, noRecentChecks: true });
      expect(flag).not.toHaveProperty('description');
      expect(flag).not.toHaveProperty('stage');
      expect(flag).not.toHaveProperty('owner');
      expect(flag).not.toHaveProperty('parentFlagId');
      expect(Date.parse(flag.createdAt)).not.toBeNaN();
      expect(flagStateVersions).toEqual(Object.fromEntries(Object.entries(before).map(([id, v]) => [id, v + 1])));
      expect(await versions(h)).toEqual(flagStateVersions);
      // Served everywhere, off.
      expect(await featureKeys(h, h.envs.development.secretKey)).toContain('new-checkout');
      expect(await featureKeys(h, h.envs.production.secretKey)).toContain('new-checkout');
    });

    it('stores every optional field: description, stage, owner, permanent, secret', async () => {
      const h = harness();
      await addMember(h, 'u-1', 'https://example.com/a.png');
      const sid = await stageId(h, 2);
      const res = await h.request('POST', `/apps/${h.appId}/flags`, {
        body: { key: 'k', name: 'K', description: 'Why', stageId: sid, ownerUserId: 'u-1', permanent: true, secret: true },
      });
      expect(res.status).toBe(200);
      expectSchema(FlagMutationResponseSchema, res.body);
      expect(res.body.flag).toMatchObject({
        description: 'Why',
        stage: { id: sid, name: 'Beta' },
        owner: { id: 'u-1', name: 'Ada', email: 'ada@example.com', avatarUrl: 'https://example.com/a.png' },
        permanent: true,
      });
      expect((await h.storage.flags.getByKey(h.appId, 'k'))!.secret).toBe(true);
    });

    it('accepts the limits exactly (key and name 255, description 8192, null description/owner)', async () => {
      const h = harness();
      const res = await h.request('POST', `/apps/${h.appId}/flags`, {
        body: { key: str(255, 'k'), name: str(255), description: str(8192), ownerUserId: null },
      });
      expect(res.status).toBe(200);
      expectSchema(FlagMutationResponseSchema, res.body);
      expect((await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'x', name: 'x', description: null } })).status).toBe(200);
    });

    it('answers 400 invalid_request just past each limit and stores nothing', async () => {
      const h = harness();
      const sid = await stageId(h);
      const post = (body: unknown) => h.request('POST', `/apps/${h.appId}/flags`, { body });
      await expectNothingStored(h, async () => {
        expectError(await post({ key: '', name: 'x' }), 400, 'invalid_request', 'key');
        expectError(await post({ key: str(256), name: 'x' }), 400, 'invalid_request', 'key');
        expectError(await post({ key: 'k', name: '' }), 400, 'invalid_request', 'name');
        expectError(await post({ key: 'k', name: str(256) }), 400, 'invalid_request', 'name');
        expectError(await post({ key: 'k', name: 'x', description: str(8193) }), 400, 'invalid_request', 'description');
        expectError(await post({ key: 'k', name: 'x', stageId: sid.slice(0, 13) }), 400, 'invalid_request', 'stageId');
        expectError(await post({ key: 'k', name: 'x', stageId: sid + 'x' }), 400, 'invalid_request', 'stageId');
        expectError(await post({ key: 'k', name: 'x', permanent: 'yes' }), 400, 'invalid_request', 'permanent');
        expectError(await post({ key: 'k', name: 'x', secret: 1 }), 400, 'invalid_request', 'secret');
        expectError(await post({ key: 'k', name: 'x', unknown: true }), 400, 'invalid_request');
        expectError(await post({ name: 'x' }), 400, 'invalid_request', 'key');
        expectError(await post({ key: 'k' }), 400, 'invalid_request', 'name');
        expectError(await post([]), 400, 'invalid_request');
        expectError(await h.request('POST', `/apps/${h.appId}/flags`, { rawBody: '{"key":' }), 400, 'invalid_request');
      });
    });

    it('answers 400 not_possible for conflicts and stores nothing', async () => {
      const h = harness();
      await createFlag(h, { key: 'taken' });
      await h.request('PATCH', `/apps/${h.appId}`, { body: { flagKeyFormat: 'kebabCaseLower' } });
      const post = (body: unknown) => h.request('POST', `/apps/${h.appId}/flags`, { body });
      await expectNothingStored(h, async () => {
        expectError(await post({ key: 'taken', name: 'x' }), 400, 'not_possible', 'key');
        expectError(await post({ key: 'NotKebab', name: 'x' }), 400, 'not_possible', 'key');
        expectError(await post({ key: 'ok-key', name: 'x', stageId: 'stunknown12345' }), 400, 'not_possible', 'stageId');
        expectError(await post({ key: 'ok-key', name: 'x', ownerUserId: 'nobody' }), 400, 'not_possible', 'ownerUserId');
        expectError(await post({ key: 'ok-key', name: 'x', ownerUserId: '' }), 400, 'not_possible', 'ownerUserId');
      });
      expect((await post({ key: 'ok-key', name: 'x' })).status).toBe(200);
    });

    it('refuses keys with surrounding whitespace or control characters (C0, DEL, C1) in the custom format', async () => {
      const h = harness();
      const post = (key: string) => h.request('POST', `/apps/${h.appId}/flags`, { body: { key, name: 'x' } });
      await expectNothingStored(h, async () => {
        for (const key of [' k', 'k\t', 'a\u0000b', 'a\u007fb', 'a\u0085b', '\u0085k', '\u009b', 'k\u00a0']) {
          expectError(await post(key), 400, 'not_possible', 'key');
        }
      });
      // Visible non-ASCII is a key like any other.
      expect((await post('caf\u00e9-\u{1F680}')).status).toBe(200);
    });

    it('refuses a stage of another app and a member of another organisation', async () => {
      const h = harness();
      const second = await h.request('POST', '/apps', { body: { name: 'Second' } });
      const other = await otherOrganization(h);
      await h.request('PUT', '/members/theirs', { key: other.key, body: { name: 'T', email: 't@x.io' } });
      await expectNothingStored(h, async () => {
        expectError(await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'k', name: 'x', stageId: second.body.stages[0].id } }), 400, 'not_possible', 'stageId');
        expectError(await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'k', name: 'x', ownerUserId: 'theirs' } }), 400, 'not_possible', 'ownerUserId');
      });
    });

    it('404 for an unknown app', async () => {
      const h = harness();
      await expectNothingStored(h, async () => {
        expectError(await h.request('POST', '/apps/apnope/flags', { body: { key: 'k', name: 'x' } }), 404, 'not_found');
      });
    });
  });

  describe('PATCH /apps/{appId}/flags/{flagId} (row 7)', () => {
    it('updates every field, bumps every environment once, same response shape', async () => {
      const h = harness();
      await addMember(h);
      const created = (await createFlag(h, { key: 'k', description: 'd', ownerUserId: 'u-1' })).body;
      const sid = await stageId(h, 1);
      const before = await versions(h);
      const res = await h.request('PATCH', `/apps/${h.appId}/flags/${created.flag.id}`, {
        body: { name: 'Renamed', description: null, ownerUserId: null, permanent: true, secret: true, stageId: sid },
      });
      expect(res.status).toBe(200);
      expectSchema(FlagMutationResponseSchema, res.body);
      expect(res.body.flag).toMatchObject({ id: created.flag.id, key: 'k', name: 'Renamed', permanent: true, stage: { id: sid } });
      expect(res.body.flag).not.toHaveProperty('description');
      expect(res.body.flag).not.toHaveProperty('owner');
      expect(res.body.flagStateVersions).toEqual(Object.fromEntries(Object.entries(before).map(([id, v]) => [id, v + 1])));
    });

    it('archives (removed from /features everywhere) and unarchives', async () => {
      const h = harness();
      const { flag } = (await createFlag(h, { key: 'k' })).body;
      const archived = await h.request('PATCH', `/apps/${h.appId}/flags/${flag.id}`, { body: { isArchived: true } });
      expect(archived.body.flag.archived).toBe(true);
      expect(archived.body.flag.stale).toBe(false);
      expect(await featureKeys(h, h.envs.production.secretKey)).not.toContain('k');
      const restored = await h.request('PATCH', `/apps/${h.appId}/flags/${flag.id}`, { body: { isArchived: false } });
      expect(restored.body.flag.archived).toBe(false);
      expect(await featureKeys(h, h.envs.production.secretKey)).toContain('k');
      expect(Object.values(restored.body.flagStateVersions)).toEqual([3, 3]);
    });

    it('a no-op update answers 200 with current versions and stores nothing', async () => {
      const h = harness();
      const { flag, flagStateVersions } = (await createFlag(h, { key: 'k', description: 'd' })).body;
      await expectNothingStored(h, async () => {
        for (const body of [{}, { name: 'k', description: 'd', permanent: false, isArchived: false, secret: false }]) {
          const res = await h.request('PATCH', `/apps/${h.appId}/flags/${flag.id}`, { body });
          expect(res.status).toBe(200);
          expectSchema(FlagMutationResponseSchema, res.body);
          expect(res.body.flagStateVersions).toEqual(flagStateVersions);
        }
      });
    });

    it('stores a lone surrogate as U+FFFD, answers what it stored, and a repeat changes nothing', async () => {
      const h = harness();
      const created = await h.request('POST', `/apps/${h.appId}/flags`, { rawBody: '{"key":"sur","name":"n\\ud800","description":"d\\udc00x"}' });
      expect(created.status).toBe(200);
      expect(created.body.flag).toMatchObject({ name: 'n\ufffd', description: 'd\ufffdx' });
      const { flag, flagStateVersions } = created.body;
      const listed = (await h.request('GET', `/apps/${h.appId}/flags`)).body.data.find((f: { key: string }) => f.key === 'sur');
      expect(listed).toMatchObject({ name: 'n\ufffd', description: 'd\ufffdx' });
      await expectNothingStored(h, async () => {
        for (let i = 0; i < 2; i++) {
          const res = await h.request('PATCH', `/apps/${h.appId}/flags/${flag.id}`, { rawBody: '{"name":"n\\ud800"}' });
          expect(res.status).toBe(200);
          expect(res.body.flag.name).toBe('n\ufffd');
          expect(res.body.flagStateVersions).toEqual(flagStateVersions);
        }
      });
    });

    it('validates the body and references, storing nothing', async () => {
      const h = harness();
      const { flag } = (await createFlag(h, { key: 'k' })).body;
      const patch = (body: unknown, id = flag.id) => h.request('PATCH', `/apps/${h.appId}/flags/${id}`, { body });
      expect((await patch({ description: str(8192) })).status).toBe(200);
      await expectNothingStored(h, async () => {
        expectError(await patch({ name: '' }), 400, 'invalid_request', 'name');
        expectError(await patch({ name: str(256) }), 400, 'invalid_request', 'name');
        expectError(await patch({ description: str(8193) }), 400, 'invalid_request', 'description');
        expectError(await patch({ stageId: 'short' }), 400, 'invalid_request', 'stageId');
        expectError(await patch({ stageId: null }), 400, 'invalid_request', 'stageId');
        expectError(await patch({ isArchived: 'true' }), 400, 'invalid_request', 'isArchived');
        expectError(await patch({ archived: true }), 400, 'invalid_request');
        expectError(await patch({ key: 'renamed' }), 400, 'invalid_request');
        expectError(await patch({ stageId: 'stunknown12345' }), 400, 'not_possible', 'stageId');
        expectError(await patch({ ownerUserId: 'nobody' }), 400, 'not_possible', 'ownerUserId');
        expectError(await patch({ name: 'x' }, 'flnope'), 404, 'not_found');
        expectError(await h.request('PATCH', `/apps/apnope/flags/${flag.id}`, { body: { name: 'x' } }), 404, 'not_found');
      });
    });

    it('404 for a flag of another app under this app', async () => {
      const h = harness();
      const second = await h.request('POST', '/apps', { body: { name: 'Second' } });
      const { flag } = (await createFlag(h, { key: 'k' }, second.body.id)).body;
      await expectNothingStored(h, async () => {
        expectError(await h.request('PATCH', `/apps/${h.appId}/flags/${flag.id}`, { body: { name: 'x' } }), 404, 'not_found');
      });
    });
  });
});
