import type { Filter } from '@flagmount/engine';
import { StorageUnavailableError } from '@flagmount/core';
import { describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { seedFlags } from './support/seed.js';

/** Decisions of reflag-clients.md that the runtime routes carry, each checked over HTTP. */
forEachAdapter((h) => {
  const evaluate = async (context: unknown, key?: string) => {
    const res = await h().request('GET', '/features/evaluated', {
      key: h().envs.development.publishableKey,
      query: { contextJson: JSON.stringify(context), ...(key ? { key } : {}) },
    });
    expect(res.status).toBe(200);
    return res.body.features as Record<string, { isEnabled: boolean; evaluationErrors: unknown[] }>;
  };
  const seed = (key: string, filter: Filter) => seedFlags(h().instance, h().appId, [{ key, rules: { [h().envs.development.id]: [filter] } }]);

  describe('reflag-clients.md decisions', () => {
    it('rollout thresholds are on the 0..100000 scale and strictly "<" (k.3579681 hashes to 100000)', async () => {
      await seed('k', { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 100_000 });
      expect((await evaluate({ user: { id: '3579681' } })).k!.isEnabled).toBe(false);
      expect((await evaluate({ user: { id: '1' } })).k!.isEnabled).toBe(true);
      const features = await h().request('GET', '/features', { key: h().envs.development.secretKey });
      // Every rollout filter is served with key = the flag key, so every client hashes the same input.
      expect(features.body.features[0].targeting.rules[0].filter).toMatchObject({ type: 'rolloutPercentage', key: 'k' });
    });

    it('any context field may be the rollout attribute (company.id and others)', async () => {
      await seed('by-company', { type: 'rolloutPercentage', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 0 });
      expect((await evaluate({ company: { id: 'acme' } }))['by-company']!.isEnabled).toBe(false);
    });

    it('arrays follow the spec on the server: IS needs exactly one equal item, CONTAINS is whole-item membership', async () => {
      await seed('is', { type: 'context', field: 'user.roles', operator: 'IS', values: ['admin'] });
      await seed('contains', { type: 'context', field: 'user.roles', operator: 'CONTAINS', values: ['Admin'] });
      expect((await evaluate({ user: { roles: ['admin'] } })).is!.isEnabled).toBe(true);
      expect((await evaluate({ user: { roles: ['admin', 'dev'] } })).is!.isEnabled).toBe(false);
      expect((await evaluate({ user: { roles: ['admin'] } })).contains!.isEnabled).toBe(false);
      expect((await evaluate({ user: { roles: ['Admin'] } })).contains!.isEnabled).toBe(true);
    });

    it('CONTAINS on a plain string follows the library: case-insensitive substring', async () => {
      await seed('email', { type: 'context', field: 'user.email', operator: 'CONTAINS', values: ['@ACME.com'] });
      expect((await evaluate({ user: { email: 'ann@acme.COM' } })).email!.isEnabled).toBe(true);
    });

    it('numeric and array operators on arrays report UNSUPPORTED_ARRAY_OPERATOR in a 200', async () => {
      await seed('gt', { type: 'context', field: 'company.sizes', operator: 'GT', values: ['1'] });
      const gt = (await evaluate({ company: { sizes: [5] } })).gt!;
      expect(gt.isEnabled).toBe(false);
      expect(gt.evaluationErrors).toEqual([expect.objectContaining({ code: 'UNSUPPORTED_ARRAY_OPERATOR', field: 'company.sizes' })]);
    });

    it('null is a present empty value (NOT_SET true), unlike a missing field', async () => {
      await seed('unset', { type: 'context', field: 'user.plan', operator: 'NOT_SET', values: [] });
      expect((await evaluate({ user: { plan: null } })).unset!.isEnabled).toBe(true);
    });

    it('DATE_AFTER is accepted beside the relative AFTER', async () => {
      await seed('recent', { type: 'context', field: 'user.signedUp', operator: 'DATE_AFTER', values: ['2024-01-01'] });
      expect((await evaluate({ user: { signedUp: '2024-06-01' } })).recent!.isEnabled).toBe(true);
      expect((await evaluate({ user: { signedUp: '2023-06-01' } })).recent!.isEnabled).toBe(false);
    });

    it('every 2xx runtime answer is a JSON object with success: true', async () => {
      const pk = h().envs.development.publishableKey;
      const answers = await Promise.all([
        h().request('GET', '/features', { key: h().envs.development.secretKey }),
        h().request('GET', '/features/evaluated', { key: pk }),
        h().request('GET', '/features/enabled', { key: pk }),
        h().request('POST', '/bulk', { key: pk, body: [{ type: 'user', userId: 'u' }] }),
        h().request('POST', '/feedback', { key: pk, body: { userId: 'u', comment: 'c' } }),
      ]);
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.headers.get('content-type')).toMatch(/^application\/json/);
        expect(a.body.success).toBe(true);
      }
    });

    it('stored attributes are skipped, not fatal, while the store is unavailable', async () => {
      await seed('pro', { type: 'context', field: 'company.plan', operator: 'IS', values: ['pro'] });
      const entities = h().storage.entities;
      const original = entities.get;
      entities.get = () => Promise.reject(new StorageUnavailableError('down'));
      try {
        const res = await h().request('GET', '/features/evaluated', {
          key: h().envs.development.publishableKey,
          query: { 'context.company.id': 'c-unknown', 'context.company.plan': 'pro' },
        });
        expect(res.status).toBe(200);
        expect(res.body.remoteContextUsed).toBe(false);
        expect(res.body.features.pro.isEnabled).toBe(true);
      } finally {
        entities.get = original;
      }
    });
  });
});
