import { describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { seedFlags } from './support/seed.js';

forEachAdapter((h) => {
  const bulk = (body: unknown) => h().request('POST', '/bulk', { key: h().envs.development.secretKey, body });
  const dev = () => h().envs.development.id;

  describe('POST /bulk', () => {
    it('stores every item type of the node and browser SDKs in one call', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'checkout' }]);
      const res = await bulk([
        { type: 'user', userId: 1, attributes: { name: 'Ann', roles: ['a'] }, context: { active: true } },
        { type: 'company', companyId: 2, userId: 1, attributes: { plan: 'pro' } },
        { type: 'event', event: 'checkout', userId: 1, companyId: 2 },
        {
          type: 'feature-flag-event',
          action: 'check',
          key: 'checkout',
          targetingVersion: 1,
          evalContext: { user: { id: 1, name: 'Ann' }, company: { id: 2 }, other: {} },
          evalResult: true,
          evalRuleResults: [true],
          evalMissingFields: [],
        },
        { type: 'feature-flag-event', action: 'check-config', key: 'checkout', evalResult: {} },
        { type: 'feature-flag-event', action: 'check-is-enabled', key: 'checkout', evalResult: false, evalContext: { user: { id: '1' } } },
        { type: 'feedback', userId: '1', featureId: 'flxxxxxxxxxxxx', score: 5, source: 'prompt', promptId: 'prompt-0001' },
        { type: 'prompt-event', action: 'shown', featureId: 'flxxxxxxxxxxxx', promptId: 'prompt-0001', userId: '1', promptedQuestion: 'How?' },
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, rejected: [] });
      expect((await h().storage.entities.get(dev(), 'user', '1'))!.attributes).toEqual({ name: 'Ann', roles: ['a'] });
      expect((await h().storage.entities.get(dev(), 'company', '2'))!.attributes).toEqual({ plan: 'pro' });
      expect(await h().storage.entities.listCompanyUsers(dev(), '2')).toEqual(['1']);
      expect(await h().storage.events.listTracks(dev(), 10)).toHaveLength(1);
      expect(await h().storage.events.listChecks(dev(), 10)).toHaveLength(3);
      expect(await h().storage.feedback.listByEnv(dev(), 10)).toHaveLength(1);
      expect(await h().storage.events.listPromptEvents(dev(), 10)).toEqual([
        expect.objectContaining({ action: 'shown', promptId: 'prompt-0001', userId: '1' }),
      ]);
      const [stats] = await h().storage.stats.listEntityFlagStats(dev(), 'user', '1');
      expect(stats).toMatchObject({ flagKey: 'checkout', checkCount: 2, exposureCount: 1, trackCount: 1 });
    });

    it('skips invalid object items and lists them; the valid ones are stored', async () => {
      const res = await bulk([
        { type: 'user', userId: 'ok-1' },
        { type: 'user' },
        { type: 'teleport', userId: 'x' },
        { userId: 'no-type' },
        { type: 'feedback', userId: 'u1' },
        { type: 'feature-flag-event', action: 'check', key: 'f', evalResult: { key: 'x' } },
        { type: 'user', userId: 'ok-2', attributes: { tags: ['a'] } },
      ]);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4, 5]);
      expect(res.body.rejected[0].issues).toHaveProperty('userId');
      expect(res.body.rejected[1].issues).toHaveProperty('type');
      expect(res.body.rejected[3].issues).toHaveProperty('score');
      expect(res.body.rejected[4].issues).toHaveProperty('evalResult');
      const stored = await h().storage.entities.getMany(dev(), 'user', ['ok-1', 'ok-2']);
      expect(stored.map((r) => r.id).sort()).toEqual(['ok-1', 'ok-2']);
    });

    it('400 and nothing stored when the body is not an array or an item is not an object', async () => {
      const before = await h().dump();
      for (const body of [{ type: 'user', userId: 'u' }, 'x', 5, null]) {
        const res = await bulk(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      for (const body of [[{ type: 'user', userId: 'u' }, 'x'], [{ type: 'user', userId: 'u' }, null], [[{ type: 'user', userId: 'u' }]], [1]]) {
        const res = await bulk(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe('invalid_request');
      }
      expect(await h().dump()).toEqual(before);
    });

    it('an empty array is fine', async () => {
      expect((await bulk([])).body).toEqual({ success: true, rejected: [] });
    });

    it('a later feedback item may update an earlier one of the same batch', async () => {
      const res = await bulk([
        { type: 'feedback', feedbackId: 'fb-1', userId: 'u1', score: 2 },
        { type: 'feedback', feedbackId: 'fb-1', userId: 'u1', comment: 'meh' },
      ]);
      expect(res.body.rejected).toEqual([]);
      const rows = await h().storage.feedback.listByEnv(dev(), 10);
      expect(rows).toEqual([expect.objectContaining({ id: 'fb-1', score: 2, comment: 'meh' })]);
    });
  });
});
