import { ReflagClient } from '@reflag/browser-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { forEachAdapter, type Harness } from '../http/support/harness.js';
import { captureLogger, createFlag, eventually, fetchEventSourceFactory, putTargeting, targetUser } from './support.js';

type Options = ConstructorParameters<typeof ReflagClient>[0];

const running: Array<{ client: ReflagClient; closeSources: () => void }> = [];
afterEach(async () => {
  for (const { client, closeSources } of running.splice(0)) {
    await client.stop().catch(() => {});
    closeSources();
  }
});

function browserClient(h: Harness, options: Partial<Options> = {}, log = captureLogger()) {
  const sources = fetchEventSourceFactory();
  const client = new ReflagClient({
    publishableKey: h.envs.development.publishableKey,
    apiBaseUrl: h.baseUrl,
    logger: log.logger,
    trackingQueue: { flushDelayMs: 20 },
    eventSourceFactory: sources.factory,
    ...options,
  } as Options);
  running.push({ client, closeSources: sources.closeAll });
  return { client, log };
}

forEachAdapter((h) => {
  describe('@reflag/browser-sdk 1.6.1 (in Node) against a mounted Flagmount', () => {
    it('initializes; a user targeted through the management API gets the flag, others do not', async () => {
      await createFlag(h(), 'new-checkout');
      await targetUser(h(), h().envs.development.id, 'u1', 'new-checkout');
      const one = browserClient(h(), { user: { id: 'u1', name: 'Ann' }, company: { id: 'c1' } });
      await one.client.initialize();
      expect(one.client.getFlag('new-checkout').isEnabled).toBe(true);
      const two = browserClient(h(), { user: { id: 'u2' } });
      await two.client.initialize();
      expect(two.client.getFlag('new-checkout').isEnabled).toBe(false);
      expect(one.log.problems()).toEqual([]);
      expect(two.log.problems()).toEqual([]);
    });

    it('sends array attributes as indexed parameters, which the server rebuilds into arrays', async () => {
      await createFlag(h(), 'admins');
      await putTargeting(h(), 'admins', h().envs.development.id, [{ type: 'context', field: 'user.roles', operator: 'CONTAINS', values: ['admin'] }]);
      const admin = browserClient(h(), { user: { id: 'u1', roles: ['viewer', 'admin'] } as never });
      await admin.client.initialize();
      expect(admin.client.getFlag('admins').isEnabled).toBe(true);
      const viewer = browserClient(h(), { user: { id: 'u2', roles: ['viewer'] } as never });
      await viewer.client.initialize();
      expect(viewer.client.getFlag('admins').isEnabled).toBe(false);
      expect(admin.log.problems()).toEqual([]);
    });

    it('live updates over /sse/client turn the flag on in under a second', async () => {
      await createFlag(h(), 'new-checkout');
      const { client, log } = browserClient(h(), { user: { id: 'u1' }, enableLiveFlagUpdates: true });
      await client.initialize();
      expect(client.getFlag('new-checkout').isEnabled).toBe(false);
      await eventually(() => h().instance.services.streams.count(h().envs.development.id) === 1, 2000, 'SSE connection');
      const changedAt = Date.now();
      await targetUser(h(), h().envs.development.id, 'u1', 'new-checkout');
      await eventually(() => client.getFlag('new-checkout').isEnabled, 1000, 'live update');
      expect(Date.now() - changedAt).toBeLessThan(1000);
      expect(log.problems()).toEqual([]);
    });

    it('rollouts: what the browser SDK gets equals server evaluation (and the in-process client)', async () => {
      await createFlag(h(), 'half');
      await putTargeting(h(), 'half', h().envs.development.id, [
        { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50_000 },
      ]);
      const inProcess = h().instance.clientFor(h().envs.development.id);
      const results = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const id = `user-${i}`;
          const { client } = browserClient(h(), { user: { id }, enableTracking: false });
          await client.initialize();
          return [client.getFlag('half').isEnabled, inProcess.getFlag({ user: { id }, enableTracking: false }, 'half').isEnabled];
        }),
      );
      for (const [browser, server] of results) expect(browser).toBe(server);
      expect(results.some(([on]) => on)).toBe(true);
      expect(results.some(([on]) => !on)).toBe(true);
    });

    it('track, updateUser, updateCompany, check events, feedback and opt-in reach the store; nothing fails', async () => {
      await createFlag(h(), 'checkout');
      await putTargeting(h(), 'checkout', h().envs.development.id, [{ type: 'constant', value: true }]);
      await createFlag(h(), 'beta');
      const { client, log } = browserClient(h(), { user: { id: 'u1', name: 'Ann' }, company: { id: 'c1', plan: 'pro' } });
      await client.initialize();
      const flag = client.getFlag('checkout');
      expect(flag.isEnabled).toBe(true);
      void flag.config;
      expect((await client.track('clicked', { button: 'buy', tags: ['a', 'b'] }))?.ok).toBe(true);
      await flag.track();
      await client.updateUser({ plan: 'team', roles: ['admin'] } as never);
      await client.updateCompany({ seats: 12 });
      const feedback = await client.feedback({ flagKey: 'checkout', score: 5, comment: 'Great' });
      expect(feedback?.ok).toBe(true);
      const { feedbackId } = await feedback!.json();
      expect(feedbackId).toEqual(expect.any(String));
      const optIn = await client.setOptIn('beta', { optedIn: true });
      expect(optIn?.ok).toBe(true);
      expect(client.getFlag('beta').isEnabled).toBe(true);
      await client.stop();

      const dev = h().envs.development.id;
      const storage = h().storage;
      expect((await storage.entities.get(dev, 'user', 'u1'))!.attributes).toEqual({ name: 'Ann', plan: 'team', roles: ['admin'] });
      expect((await storage.entities.get(dev, 'company', 'c1'))!.attributes).toEqual({ plan: 'pro', seats: 12 });
      expect(await storage.entities.listCompanyUsers(dev, 'c1')).toEqual(['u1']);
      const tracks = (await storage.events.listTracks(dev, 10)).map((t) => [t.event, t.userId, t.companyId, t.attributes]);
      expect(tracks).toEqual(
        expect.arrayContaining([
          ['clicked', 'u1', 'c1', { button: 'buy', tags: ['a', 'b'] }],
          ['checkout', 'u1', 'c1', {}],
        ]),
      );
      const checks = await storage.events.listChecks(dev, 20);
      expect(new Set(checks.map((c) => c.action))).toEqual(new Set(['check-is-enabled', 'check-config']));
      const [row] = await storage.feedback.listByEnv(dev, 10);
      expect(row).toMatchObject({ id: feedbackId, userId: 'u1', companyId: 'c1', flagKey: 'checkout', score: 5, comment: 'Great', source: 'sdk' });
      expect(log.entries.filter((e) => /fail|error/i.test(e.message))).toEqual([]);
      expect(log.problems()).toEqual([]);
    });
  });
}, { options: { optIn: 'publishable' } });
