import { describe, expect, it } from 'vitest';
import { ListAuditResponseSchema, type AuditEntry } from '../../../packages/core/src/schemas/audit.js';
import type { ApiResponse, Harness } from '../support/harness.js';
import { forEachAdapter } from '../support/harness.js';
import { createFlag, expectError, expectSchema, keyWithScopes, str } from './support/management.js';

type Query = Record<string, string | number>;

/** Every page of a filtered walk, following nextCursor with the same filters. */
async function walk(h: Harness, path: string, query: Query): Promise<AuditEntry[][]> {
  const pages: AuditEntry[][] = [];
  let before: string | null = null;
  do {
    const res: ApiResponse = await h.request('GET', path, { query: { ...query, ...(before ? { before } : {}) } });
    expect(res.status).toBe(200);
    expectSchema(ListAuditResponseSchema, res.body);
    pages.push(res.body.data);
    before = res.body.nextCursor;
  } while (before && pages.length < 50);
  return pages;
}

const sizes = (pages: AuditEntry[][]) => pages.map((p) => p.length);

/**
 * Two actors take turns on two environments, so each filter's matches are spread through the history: a filter
 * applied after paging would give short or empty pages.
 */
async function interleavedHistory(h: Harness): Promise<{ other: string; otherId: string }> {
  const other = await keyWithScopes(h, ['read', 'write:flags', 'write:flag:targeting']);
  for (const key of ['f0', 'f1', 'f2']) await createFlag(h, { key });
  const targeting = (key: string, envId: string) => `/apps/${h.appId}/flags/${key}/targeting/${envId}`;
  for (let i = 0; i < 5; i++) {
    const flag = `f${i % 3}`;
    // A different rule each time: targeting that is sent unchanged records nothing.
    const body = { rules: [{ filter: { type: 'context', field: 'user.plan', operator: 'IS', values: [`plan${i}`] } }] };
    expect((await h.request('PUT', targeting(flag, h.envs.production.id), { body })).status).toBe(200);
    expect((await h.request('PUT', targeting(flag, h.envs.development.id), { key: other, body })).status).toBe(200);
    expect((await h.request('POST', `/apps/${h.appId}/flags`, { key: other, body: { key: `g${i}`, name: `g${i}` } })).status).toBe(200);
  }
  const entries = (await h.request('GET', `/apps/${h.appId}/audit`, { query: { limit: 500 } })).body.data as AuditEntry[];
  const otherId = entries.find((e) => e.envId === h.envs.development.id)!.actor;
  return { other, otherId };
}

forEachAdapter((harness) => {
  describe('audit filters (extension): envId, actor, action', () => {
    it('every page is full of matches and nextCursor continues the filtered walk', async () => {
      const h = harness();
      const { otherId } = await interleavedHistory(h);
      const appAudit = `/apps/${h.appId}/audit`;

      const prod = await walk(h, appAudit, { limit: 2, envId: h.envs.production.id });
      expect(sizes(prod)).toEqual([2, 2, 1]);
      expect(prod.flat().every((e) => e.envId === h.envs.production.id && e.action === 'flag.targeting.updated')).toBe(true);

      const byOther = await walk(h, appAudit, { limit: 2, actor: otherId, action: 'flag.created' });
      expect(byOther.flat().map((e) => (e.after as { key: string }).key)).toEqual(['g4', 'g3', 'g2', 'g1', 'g0']);
      expect(sizes(byOther)).toEqual([2, 2, 1]);
      expect(byOther.flat().every((e) => e.actor === otherId && e.actorName !== null)).toBe(true);

      const combined = await walk(h, '/audit', { limit: 3, envId: h.envs.development.id, actor: otherId, action: 'flag.targeting.updated' });
      expect(sizes(combined)).toEqual([3, 2]);
    });

    it('a prefix ending in .* matches every action under it, on the organisation audit too', async () => {
      const h = harness();
      await interleavedHistory(h);
      const created = await h.request('POST', '/keys', { body: { name: 'ci', scopes: ['read'] } });
      await h.request('DELETE', `/keys/${created.body.key.id}`);

      const flagActions = (await walk(h, '/audit', { limit: 4, action: 'flag.*' })).flat();
      // 3 + 5 flags created, 5 + 5 targeting updates; the keys' entries are not under flag.
      expect(flagActions).toHaveLength(18);
      expect(new Set(flagActions.map((e) => e.action))).toEqual(new Set(['flag.created', 'flag.targeting.updated']));

      const keys = await walk(h, '/audit', { limit: 1, action: 'managementKey.*' });
      expect(keys.flat().map((e) => e.action)).toEqual(['managementKey.revoked', 'managementKey.created']);
      expect(sizes(keys)).toEqual([1, 1]);
      // An exact action is not a prefix: `flag` alone names no action.
      expect((await h.request('GET', '/audit', { query: { action: 'flag' } })).body).toEqual({ data: [], nextCursor: null });
      expect((await h.request('GET', '/audit', { query: { action: 'flag.targeting.*' } })).body.data).toHaveLength(10);
    });

    it('a filter matching nothing gives an empty last page; bad filters are 400 with the field', async () => {
      const h = harness();
      await createFlag(h, { key: 'f' });
      const none = await h.request('GET', '/audit', { query: { actor: 'member:nobody' } });
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ data: [], nextCursor: null });
      const appAudit = `/apps/${h.appId}/audit`;
      expect((await h.request('GET', appAudit, { query: { envId: 'env_of_nothing' } })).body.data).toEqual([]);
      for (const action of ['*', 'flag*', 'flag.', '.*', 'flag.*.created', 'flag %']) {
        expectError(await h.request('GET', appAudit, { query: { action } }), 400, 'invalid_request', 'action');
      }
      expectError(await h.request('GET', '/audit', { query: { envId: '' } }), 400, 'invalid_request', 'envId');
      expectError(await h.request('GET', '/audit', { query: { actor: str(201) } }), 400, 'invalid_request', 'actor');
    });
  });
});
