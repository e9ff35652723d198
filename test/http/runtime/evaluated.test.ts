import type { Filter } from '@flagmount/engine';
import { describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { always, seedFlags, userIs } from './support/seed.js';

const planIs = (plan: string): Filter => ({ type: 'context', field: 'company.plan', operator: 'IS', values: [plan] });

forEachAdapter((h) => {
  const pk = () => h().envs.development.publishableKey;
  const evaluated = (query: Record<string, string | number | string[]>, path = '/features/evaluated', key: string | null = pk()) =>
    h().request('GET', path, { key, query });

  describe('GET /features/evaluated', () => {
    it('fills every field of each entry (spec + reflag-clients.md)', async () => {
      const dev = h().envs.development.id;
      const [stage] = await h().storage.stages.listByApp(h().appId);
      await seedFlags(h().instance, h().appId, [
        {
          key: 'checkout',
          name: 'New checkout',
          description: 'Faster',
          stageId: stage!.id,
          rules: { [dev]: [userIs('nobody'), userIs('u1')] },
          variants: { [dev]: [{ key: 'blue', payload: { color: 'blue' }, filter: always }] },
        },
      ]);
      const res = await evaluated({ 'context.user.id': 'u1' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        flagStateVersion: 1,
        remoteContextUsed: false,
        features: {
          checkout: {
            key: 'checkout',
            targetingVersion: 1,
            isEnabled: true,
            optInEnabled: false,
            optIn: { userOptedIn: false, companyOptedIn: false, isOptedIn: false, name: 'New checkout', description: 'Faster' },
            stage: { id: stage!.id, name: stage!.name, color: stage!.color, order: stage!.order },
            config: {
              key: 'blue',
              name: 'blue',
              version: 1,
              default: false,
              payload: { color: 'blue' },
              ruleEvaluationResults: [true],
              evaluationErrors: [],
              missingContextFields: [],
            },
            ruleEvaluationResults: [false, true],
            evaluationErrors: [],
            missingContextFields: [],
          },
        },
      });
    });

    it('serves a flag without config with a default config and no stage', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'plain' }]);
      const res = await evaluated({});
      expect(res.body.features.plain).toMatchObject({
        isEnabled: false,
        targetingVersion: 0,
        stage: null,
        config: { key: null, name: null, default: true, payload: null, ruleEvaluationResults: [], evaluationErrors: [] },
        ruleEvaluationResults: [],
      });
    });

    it('a flag whose config was cleared keeps serving that config version, as /features does', async () => {
      const dev = h().envs.development.id;
      await h().request('POST', `/apps/${h().appId}/flags`, { body: { key: 'cleared', name: 'Cleared' } });
      const put = (variants: unknown[]) =>
        h().request('PUT', `/apps/${h().appId}/flags/cleared/targeting/${dev}`, { body: { rules: [{ filter: always }], config: { variants } } });
      await put([{ key: 'a', payload: 1, filter: always }]);
      expect((await evaluated({ key: 'cleared' })).body.features.cleared.config).toMatchObject({ key: 'a', version: 1 });
      await put([]);
      const served = (await h().request('GET', '/features', { key: h().envs.development.secretKey })).body.features;
      expect(served.find((f: { key: string }) => f.key === 'cleared').config.version).toBe(2);
      for (const path of ['/features/evaluated', '/features/enabled']) {
        for (const query of [{ key: 'cleared' }, {}] as Array<Record<string, string>>) {
          const config = (await evaluated(query, path)).body.features.cleared.config;
          expect(config, `${path} ${JSON.stringify(query)}`).toEqual({
            key: null,
            name: null,
            version: 2,
            default: true,
            payload: null,
            ruleEvaluationResults: [],
            evaluationErrors: [],
            missingContextFields: [],
          });
        }
      }
    });

    it('reports evaluation errors as a normal 200: missing fields and array operators', async () => {
      const dev = h().envs.development.id;
      await seedFlags(h().instance, h().appId, [
        { key: 'by-plan', rules: { [dev]: [planIs('pro')] } },
        { key: 'by-size', rules: { [dev]: [{ type: 'context', field: 'company.tags', operator: 'GT', values: ['1'] }, always] } },
      ]);
      const res = await evaluated({ contextJson: JSON.stringify({ company: { id: 'c1', tags: ['a'] } }) });
      expect(res.status).toBe(200);
      const byPlan = res.body.features['by-plan'];
      expect(byPlan.isEnabled).toBe(false);
      expect(byPlan.missingContextFields).toEqual(['company.plan']);
      expect(byPlan.evaluationErrors).toEqual([
        { code: 'MISSING_CONTEXT_FIELD', field: 'company.plan', operator: 'IS', message: expect.any(String) },
      ]);
      const bySize = res.body.features['by-size'];
      expect(bySize.isEnabled).toBe(true);
      expect(bySize.ruleEvaluationResults).toEqual([false, true]);
      expect(bySize.evaluationErrors[0]).toMatchObject({ code: 'UNSUPPORTED_ARRAY_OPERATOR', field: 'company.tags', operator: 'GT' });
    });

    it('key returns only that flag (an unknown key returns none)', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'a' }, { key: 'b' }]);
      expect(Object.keys((await evaluated({ key: 'b' })).body.features)).toEqual(['b']);
      expect((await evaluated({ key: 'zzz' })).body.features).toEqual({});
    });

    it('key length 1..255', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'k'.repeat(255) }]);
      expect((await evaluated({ key: 'k'.repeat(255) })).status).toBe(200);
      expect((await evaluated({ key: 'k'.repeat(256) })).status).toBe(400);
      expect((await evaluated({ key: '' })).status).toBe(400);
      expect((await evaluated({ key: ['a', 'b'] })).status).toBe(400);
    });

    it('ids may be numbers in contextJson and match string rules', async () => {
      const dev = h().envs.development.id;
      await seedFlags(h().instance, h().appId, [{ key: 'f', rules: { [dev]: [userIs('42')] } }]);
      expect((await evaluated({ contextJson: '{"user":{"id":42}}' })).body.features.f.isEnabled).toBe(true);
      expect((await evaluated({ 'context.user.id': '42' })).body.features.f.isEnabled).toBe(true);
    });

    it("rebuilds the browser SDK's indexed array parameters and matches them as arrays", async () => {
      const dev = h().envs.development.id;
      const hasAdmin: Filter = { type: 'context', field: 'user.roles', operator: 'CONTAINS', values: ['admin'] };
      await seedFlags(h().instance, h().appId, [{ key: 'admin', rules: { [dev]: [hasAdmin] } }]);
      const res = await evaluated({ 'context.user.id': 'u', 'context.user.roles.0': 'viewer', 'context.user.roles.1': 'admin' });
      expect(res.status).toBe(200);
      expect(res.body.features.admin.isEnabled).toBe(true);
      const viaJson = await evaluated({ contextJson: JSON.stringify({ user: { roles: ['admin'] } }) });
      expect(viaJson.body.features.admin.isEnabled).toBe(true);
      const other = await evaluated({ 'context.user.roles.0': 'viewer' });
      expect(other.body.features.admin.isEnabled).toBe(false);
    });

    it('one level of nested grouping is targeted by its dotted path', async () => {
      const dev = h().envs.development.id;
      const tier: Filter = { type: 'context', field: 'user.profile.tier', operator: 'IS', values: ['gold'] };
      await seedFlags(h().instance, h().appId, [{ key: 'gold', rules: { [dev]: [tier] } }]);
      expect((await evaluated({ contextJson: '{"user":{"profile":{"tier":"gold"}}}' })).body.features.gold.isEnabled).toBe(true);
      expect((await evaluated({ 'context.user.profile.tier': 'gold' })).body.features.gold.isEnabled).toBe(true);
      expect((await evaluated({ contextJson: '{"user":{"profile":{"tier":{"x":"gold"}}}}' })).status).toBe(400);
    });

    it('secret flags are served to the secret key only', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'public' }, { key: 'hidden', secret: true }]);
      expect(Object.keys((await evaluated({})).body.features)).toEqual(['public']);
      const withSecret = await evaluated({}, '/features/evaluated', h().envs.development.secretKey);
      expect(Object.keys(withSecret.body.features).sort()).toEqual(['hidden', 'public']);
    });
  });

  describe('GET /features/enabled', () => {
    it('has the same shape but only flags that evaluated to true', async () => {
      const dev = h().envs.development.id;
      await seedFlags(h().instance, h().appId, [
        { key: 'on', rules: { [dev]: [userIs('u1')] } },
        { key: 'off', rules: { [dev]: [userIs('u2')] } },
      ]);
      const res = await evaluated({ 'context.user.id': 'u1' }, '/features/enabled');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, flagStateVersion: 1, remoteContextUsed: false });
      expect(Object.keys(res.body.features)).toEqual(['on']);
      expect(res.body.features.on).toMatchObject({ key: 'on', isEnabled: true, targetingVersion: 1 });
      expect((await evaluated({ 'context.user.id': 'u1', key: 'off' }, '/features/enabled')).body.features).toEqual({});
    });
  });

  describe('remote context', () => {
    it('merges stored attributes under the sent ones and says so', async () => {
      const dev = h().envs.development.id;
      await seedFlags(h().instance, h().appId, [{ key: 'pro', rules: { [dev]: [planIs('pro')] } }]);
      await h().request('POST', '/company', { key: pk(), body: { companyId: 'c1', attributes: { plan: 'pro', size: 5 } } });
      const stored = await evaluated({ 'context.company.id': 'c1' });
      expect(stored.body.remoteContextUsed).toBe(true);
      expect(stored.body.features.pro.isEnabled).toBe(true);
      const sentWins = await evaluated({ 'context.company.id': 'c1', 'context.company.plan': 'free' });
      expect(sentWins.body.features.pro.isEnabled).toBe(false);
      const unknown = await evaluated({ 'context.company.id': 'c2' });
      expect(unknown.body.remoteContextUsed).toBe(false);
    });

    it('sees an attribute update of this process at once (cache invalidated on write)', async () => {
      const dev = h().envs.development.id;
      await seedFlags(h().instance, h().appId, [{ key: 'pro', rules: { [dev]: [planIs('pro')] } }]);
      await h().request('POST', '/company', { key: pk(), body: { companyId: 'c1', attributes: { plan: 'free' } } });
      expect((await evaluated({ 'context.company.id': 'c1' })).body.features.pro.isEnabled).toBe(false);
      await h().request('POST', '/bulk', { key: pk(), body: [{ type: 'company', companyId: 'c1', attributes: { plan: 'pro' } }] });
      expect((await evaluated({ 'context.company.id': 'c1' })).body.features.pro.isEnabled).toBe(true);
    });

    it('uses stored user attributes too, and arrays stay arrays', async () => {
      const dev = h().envs.development.id;
      const beta: Filter = { type: 'context', field: 'user.groups', operator: 'ANY_OF', values: ['beta'] };
      await seedFlags(h().instance, h().appId, [{ key: 'beta', rules: { [dev]: [beta] } }]);
      await h().request('POST', '/user', { key: pk(), body: { userId: 7, attributes: { groups: ['alpha', 'beta'] } } });
      const res = await evaluated({ contextJson: '{"user":{"id":7}}' });
      expect(res.body.remoteContextUsed).toBe(true);
      expect(res.body.features.beta.isEnabled).toBe(true);
    });
  });
});
