import { describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { seedFlags } from './support/seed.js';

forEachAdapter((h) => {
  const pk = () => h().envs.development.publishableKey;
  const optIn = (body: unknown, key: string | null = pk()) => h().request('POST', '/flags/opt-in', { key, body });
  const flagFor = async (query: Record<string, string>, flagKey: string) =>
    (await h().request('GET', '/features/evaluated', { key: pk(), query: { ...query, key: flagKey } })).body.features[flagKey];

  describe('POST /flags/opt-in (browser SDK setOptIn)', () => {
    it('opting a user in turns the flag on for that user only and answers the new flagStateVersion', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'beta', name: 'Beta program', description: 'Early access' }]);
      const res = await optIn({ key: 'beta', optedIn: true, scope: 'user', context: { user: { id: 'u1', name: 'Ann' }, company: { id: 'c1' }, other: {} } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, flagStateVersion: 2 });
      const on = await flagFor({ 'context.user.id': 'u1', waitForVersion: '2' }, 'beta');
      expect(on.isEnabled).toBe(true);
      expect(on.optIn).toEqual({ userOptedIn: true, companyOptedIn: false, isOptedIn: true, name: 'Beta program', description: 'Early access' });
      expect(on.targetingVersion).toBe(1);
      expect((await flagFor({ 'context.user.id': 'u2' }, 'beta')).isEnabled).toBe(false);
      const features = await h().request('GET', '/features', { key: h().envs.development.secretKey });
      expect(features.body.features[0].targeting.rules).toEqual([
        { filter: { type: 'context', field: 'user.id', operator: 'ANY_OF', values: ['u1'] } },
      ]);
      const audit = await h().storage.audit.list({ orgId: h().orgId, limit: 10 });
      expect(audit[0]).toMatchObject({ action: 'flag.specificTarget.added', envId: h().envs.development.id, actor: `sdk:${h().envs.development.id}` });
    });

    it('company scope, then opting out; a repeat changes nothing and does not bump', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'beta' }]);
      const context = { user: { id: 'u1' }, company: { id: 42 } };
      const first = await optIn({ key: 'beta', optedIn: true, scope: 'company', context });
      const again = await optIn({ key: 'beta', optedIn: true, scope: 'company', context });
      expect(again.body.flagStateVersion).toBe(first.body.flagStateVersion);
      const on = await flagFor({ 'context.company.id': '42' }, 'beta');
      expect(on).toMatchObject({ isEnabled: true, optIn: { companyOptedIn: true, userOptedIn: false, isOptedIn: true } });
      const out = await optIn({ key: 'beta', optedIn: false, scope: 'company', context });
      expect(out.body.flagStateVersion).toBe(first.body.flagStateVersion + 1);
      const off = await flagFor({ 'context.company.id': '42' }, 'beta');
      expect(off).toMatchObject({ isEnabled: false, optIn: { companyOptedIn: false, isOptedIn: false } });
    });

    it('scope defaults to user; the scope entity id is required', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'beta' }]);
      expect((await optIn({ key: 'beta', optedIn: true, context: { user: { id: 'u9' } } })).status).toBe(200);
      expect((await flagFor({ 'context.user.id': 'u9' }, 'beta')).isEnabled).toBe(true);
      const missing = await optIn({ key: 'beta', optedIn: true, scope: 'company', context: { user: { id: 'u9' } } });
      expect(missing.status).toBe(400);
      expect(missing.body.issues).toHaveProperty(['context.company.id']);
    });

    it('400 for invalid bodies, 404 for an unknown or secret flag (publishable key)', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'beta' }, { key: 'hidden', secret: true }]);
      for (const body of [{}, { key: 'beta', optedIn: 'yes', context: {} }, { key: 'beta', optedIn: true, scope: 'team', context: { user: { id: 'u' } } }, { key: '', optedIn: true, context: {} }]) {
        expect((await optIn(body)).status, JSON.stringify(body)).toBe(400);
      }
      expect((await optIn({ key: 'nope', optedIn: true, context: { user: { id: 'u' } } })).status).toBe(404);
      expect((await optIn({ key: 'hidden', optedIn: true, context: { user: { id: 'u' } } })).status).toBe(404);
      expect((await optIn({ key: 'hidden', optedIn: true, context: { user: { id: 'u' } } }, h().envs.development.secretKey)).status).toBe(200);
      expect((await optIn({ key: 'beta', optedIn: true, context: { user: { id: 'u' } } }, null)).status).toBe(403);
    });
  });

  describe('feedback prompting routes of the browser SDK', () => {
    it('POST /feedback/prompting-init answers success without a channel', async () => {
      const res = await h().request('POST', '/feedback/prompting-init', { key: pk(), body: { userId: 'u1' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
    });

    it('POST /feedback/prompt-events stores the event', async () => {
      const res = await h().request('POST', '/feedback/prompt-events', {
        key: pk(),
        body: { action: 'dismissed', featureId: 'fl123', promptId: 'prompt-123', userId: 'u1', promptedQuestion: 'How?' },
      });
      expect(res.status).toBe(200);
      const rows = await h().storage.events.listPromptEvents(h().envs.development.id, 10);
      expect(rows).toEqual([expect.objectContaining({ action: 'dismissed', featureId: 'fl123', userId: 'u1' })]);
      expect((await h().request('POST', '/feedback/prompt-events', { key: pk(), body: { action: 'clicked', userId: 'u1' } })).status).toBe(400);
    });
  });
}, { options: { optIn: 'publishable' } });

forEachAdapter((h) => {
  const body = { key: 'beta', optedIn: true, context: { user: { id: 'u1' } } };
  const seed = async () => {
    const created = await h().request('POST', `/apps/${h().appId}/flags`, { body: { key: 'beta', name: 'Beta program' } });
    expect(created.status).toBe(200);
  };
  const evaluatedOptIn = async (key: string) => {
    const res = await h().request('GET', '/features/evaluated', { key, query: { 'context.user.id': 'u1' } });
    return res.body.features.beta.optInEnabled as boolean;
  };

  describe('opt-in policy: secret key only by default', () => {
    it('refuses the publishable key with 403 and the error body, accepts the secret key', async () => {
      await seed();
      const denied = await h().request('POST', '/flags/opt-in', { key: h().envs.development.publishableKey, body });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/secret key/) });
      expect(await h().storage.specificTargets.listByEnv(h().envs.development.id)).toEqual([]);
      const ok = await h().request('POST', '/flags/opt-in', { key: h().envs.development.secretKey, body });
      expect(ok.status).toBe(200);
    });

    it('refuses the publishable key before it reads the body: a 403 for a bad body too', async () => {
      const denied = await h().request('POST', '/flags/opt-in', { key: h().envs.development.publishableKey, body: { nonsense: true } });
      expect(denied.status).toBe(403);
      const bad = await h().request('POST', '/flags/opt-in', { key: h().envs.development.secretKey, body: { nonsense: true } });
      expect(bad.status).toBe(400);
    });

    it('optInEnabled tells each caller whether it may opt in', async () => {
      await seed();
      expect(await evaluatedOptIn(h().envs.development.publishableKey)).toBe(false);
      expect(await evaluatedOptIn(h().envs.development.secretKey)).toBe(true);
    });
  });
});

forEachAdapter((h) => {
  describe('opt-in policy: off', () => {
    it('refuses every key and reports optInEnabled false', async () => {
      const created = await h().request('POST', `/apps/${h().appId}/flags`, { body: { key: 'beta', name: 'Beta program' } });
      expect(created.status).toBe(200);
      for (const key of [h().envs.development.publishableKey, h().envs.development.secretKey]) {
        const res = await h().request('POST', '/flags/opt-in', { key, body: { key: 'beta', optedIn: true, context: { user: { id: 'u1' } } } });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toMatch(/disabled/);
        const evaluated = await h().request('GET', '/features/evaluated', { key, query: { 'context.user.id': 'u1' } });
        expect(evaluated.body.features.beta.optInEnabled).toBe(false);
      }
    });
  });
}, { options: { optIn: 'off' } });
