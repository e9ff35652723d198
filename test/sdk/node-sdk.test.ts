import type { Filter } from '@flagmount/engine';
import { ReflagClient } from '@reflag/node-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { forEachAdapter, type Harness } from '../http/support/harness.js';
import { captureLogger, createFlag, eventually, putTargeting, targetUser } from './support.js';

const clients: ReflagClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
});

function nodeClient(h: Harness, mode: 'polling' | 'push', log = captureLogger()) {
  const client = new ReflagClient({
    secretKey: h.envs.development.secretKey,
    apiBaseUrl: h.baseUrl,
    flagsSyncMode: mode,
    // The push URL is not derived from apiBaseUrl: a Flagmount user sets it to the mount's /sse/server.
    ...(mode === 'push' ? { flagsPushUrl: `${h.baseUrl}/sse/server` } : {}),
    // NODE_ENV=test would make the SDK go offline.
    offline: false,
    logger: log.logger,
    batchOptions: { flushOnExit: false },
  });
  clients.push(client);
  return { client, log };
}

const rollout = (threshold: number): Filter => ({
  type: 'rolloutPercentage',
  partialRolloutAttribute: 'user.id',
  partialRolloutThreshold: threshold,
});

forEachAdapter((h) => {
  describe('@reflag/node-sdk 1.7.1 against a mounted Flagmount', () => {
    it('polling: initializes, and a user targeted through the management API is on after the refresh', async () => {
      await createFlag(h(), 'new-checkout');
      const { client, log } = nodeClient(h(), 'polling');
      await client.initialize();
      expect(client.getFlag({ user: { id: 'u1' }, enableTracking: false }, 'new-checkout').isEnabled).toBe(false);
      const version = await targetUser(h(), h().envs.development.id, 'u1', 'new-checkout');
      // What the SDK's polling timer does every 60 s.
      await client.refreshFlags();
      expect(client.getFlag({ user: { id: 'u1' }, enableTracking: false }, 'new-checkout').isEnabled).toBe(true);
      expect(client.getFlag({ user: { id: 'u2' }, enableTracking: false }, 'new-checkout').isEnabled).toBe(false);
      expect(client.getFlagsForBootstrap({ user: { id: 'u1' }, enableTracking: false }).flagStateVersion).toBe(version);
      expect(log.problems()).toEqual([]);
    });

    it('push: initialize() returns at once and a targeting change reaches the SDK in under a second', async () => {
      await createFlag(h(), 'new-checkout');
      const { client, log } = nodeClient(h(), 'push');
      const started = Date.now();
      await client.initialize();
      expect(Date.now() - started).toBeLessThan(2000);
      expect(client.getFlag({ user: { id: 'u1' }, enableTracking: false }, 'new-checkout').isEnabled).toBe(false);
      // The SDK refreshes at most once a second: let the refresh of initialize() age like a running app's would.
      await new Promise((r) => setTimeout(r, 1100));
      const changedAt = Date.now();
      await targetUser(h(), h().envs.development.id, 'u1', 'new-checkout');
      const elapsed = await eventually(
        () => client.getFlag({ user: { id: 'u1' }, enableTracking: false }, 'new-checkout').isEnabled,
        1000,
        'push update',
      );
      expect(elapsed).toBeLessThan(1000);
      expect(Date.now() - changedAt).toBeLessThan(1000);
      expect(client.getFlag({ user: { id: 'u2' }, enableTracking: false }, 'new-checkout').isEnabled).toBe(false);
      // Rules and config changes arrive the same way, once the refresh above has aged past the SDK's one-second
      // throttle (a change inside it waits for the window first, which is the SDK's pacing, not propagation).
      await new Promise((r) => setTimeout(r, 1100));
      await putTargeting(h(), 'new-checkout', h().envs.development.id, [{ type: 'constant', value: true }], [
        { key: 'blue', payload: { color: 'blue' }, filter: { type: 'constant', value: true } },
      ]);
      await eventually(() => client.getFlag({ user: { id: 'u9' }, enableTracking: false }, 'new-checkout').isEnabled, 1000, 'rules update');
      expect(client.getFlag({ user: { id: 'u9' }, enableTracking: false }, 'new-checkout').config).toEqual({ key: 'blue', payload: { color: 'blue' } });
      expect(log.problems()).toEqual([]);
    });

    it('rollouts: local SDK evaluation agrees with the server and the in-process client for 1,000 user ids', async () => {
      await createFlag(h(), 'half');
      await putTargeting(h(), 'half', h().envs.development.id, [rollout(50_000)]);
      const { client, log } = nodeClient(h(), 'polling');
      await client.initialize();
      const inProcess = h().instance.clientFor(h().envs.development.id);
      let enabled = 0;
      const ids = Array.from({ length: 1000 }, (_, i) => `user-${i}`);
      for (let i = 0; i < ids.length; i += 50) {
        const chunk = ids.slice(i, i + 50);
        const remote = await Promise.all(
          chunk.map(async (id) => {
            const res = await h().request('GET', '/features/evaluated', {
              key: h().envs.development.secretKey,
              query: { 'context.user.id': id, key: 'half' },
            });
            return res.body.features.half.isEnabled as boolean;
          }),
        );
        chunk.forEach((id, j) => {
          const local = client.getFlag({ user: { id }, enableTracking: false }, 'half').isEnabled;
          expect(local, id).toBe(remote[j]);
          expect(inProcess.getFlag({ user: { id }, enableTracking: false }, 'half').isEnabled, id).toBe(local);
          if (local) enabled++;
        });
      }
      expect(enabled).toBeGreaterThan(400);
      expect(enabled).toBeLessThan(600);
      // The SDK's own remote evaluation reads the same answer.
      const remoteFlag = await client.getFlagRemote('half', 'user-1');
      expect(remoteFlag.isEnabled).toBe(client.getFlag({ user: { id: 'user-1' }, enableTracking: false }, 'half').isEnabled);
      expect(log.problems()).toEqual([]);
    });

    it('track, updateUser, updateCompany and check events reach the store through /bulk; no batch fails', async () => {
      await createFlag(h(), 'checkout');
      await putTargeting(h(), 'checkout', h().envs.development.id, [{ type: 'constant', value: true }]);
      const { client, log } = nodeClient(h(), 'polling');
      await client.initialize();
      const flag = client.getFlag({ user: { id: 'u1', name: 'Ann' }, company: { id: 'c1', plan: 'pro' } }, 'checkout');
      expect(flag.isEnabled).toBe(true);
      void flag.config;
      await flag.track();
      await client.track('u1', 'custom-event', { companyId: 'c1', attributes: { items: ['a', 'b'] } });
      await client.updateUser(42, { attributes: { roles: ['admin', 'dev'], age: 30 } });
      await client.updateCompany('c2', { userId: 42, attributes: { tier: 'gold' } });
      const bound = client.bindClient({ user: { id: 'u3' }, company: { id: 'c3' } });
      await bound.track('bound-event');
      await client.flush();
      const dev = h().envs.development.id;
      const storage = h().storage;
      expect((await storage.entities.get(dev, 'user', '42'))!.attributes).toEqual({ roles: ['admin', 'dev'], age: 30 });
      expect((await storage.entities.get(dev, 'company', 'c2'))!.attributes).toEqual({ tier: 'gold' });
      expect(await storage.entities.listCompanyUsers(dev, 'c2')).toEqual(['42']);
      expect((await storage.entities.get(dev, 'user', 'u1'))!.attributes).toEqual({ name: 'Ann' });
      expect((await storage.entities.get(dev, 'company', 'c1'))!.attributes).toEqual({ plan: 'pro' });
      const tracks = (await storage.events.listTracks(dev, 10)).map((t) => [t.event, t.userId, t.companyId]);
      expect(tracks).toEqual(expect.arrayContaining([['checkout', 'u1', 'c1'], ['custom-event', 'u1', 'c1'], ['bound-event', 'u3', 'c3']]));
      const checks = await storage.events.listChecks(dev, 10);
      expect(checks.map((c) => c.action).sort()).toEqual(['check', 'check-config']);
      const [stats] = await storage.stats.listEntityFlagStats(dev, 'user', 'u1');
      expect(stats).toMatchObject({ flagKey: 'checkout', checkCount: 2, exposureCount: 1, trackCount: 1 });
      expect(log.entries.filter((e) => /flush of buffered items failed|failed to send/.test(e.message))).toEqual([]);
      expect(log.problems()).toEqual([]);
    });
  });
});
