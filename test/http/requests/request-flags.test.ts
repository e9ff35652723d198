import { createFlagmount, type Flag, type Flagmount } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectedAdapters, type HostServer } from '../support/adapters.js';
import { MANAGEMENT_KEY, SDK_KEYS } from '../support/harness.js';
import { listenHost } from './hosts.js';

const BETA_FOR_U1 = { rules: [{ filter: { type: 'context', field: 'user.id', operator: 'IS', values: ['u1'] } }] };

/** An instance whose flag `beta` is on in Development for user u1 only, created through the management API. */
export async function betaInstance(logger?: (message: string, fields: unknown, level: string) => void): Promise<Flagmount> {
  const instance = await createFlagmount({ storage: memoryStorage(), bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS }, ...(logger ? { logger } : {}) });
  const { appId, environments } = instance.bootstrap!;
  const dev = environments.find((e) => e.name === 'Development')!.id;
  const call = (method: string, path: string, body: unknown) =>
    instance.handler({ method, path, query: [], headers: { authorization: `Bearer ${MANAGEMENT_KEY}` }, body: { kind: 'parsed', value: body } });
  expect((await call('POST', `/apps/${appId}/flags`, { key: 'beta', name: 'Beta' })).status).toBe(200);
  expect((await call('PUT', `/apps/${appId}/flags/beta/targeting/${dev}`, BETA_FOR_U1)).status).toBe(200);
  return instance;
}

for (const adapter of selectedAdapters()) {
  describe(`request-bound flags on ${adapter.name}`, () => {
    let instance: Flagmount;
    let host: HostServer;
    const hostErrors: unknown[] = [];
    const logged: Array<{ level: string; message: string }> = [];
    const get = (path: string, headers: Record<string, string> = {}) => fetch(host.origin + path, { headers, redirect: 'manual' });

    beforeEach(async () => {
      hostErrors.length = 0;
      logged.length = 0;
      instance = await betaInstance((message, _fields, level) => void logged.push({ level, message }));
      host = await listenHost(adapter.name, instance, hostErrors);
    });
    afterEach(async () => {
      await host.close();
      await instance.close();
    });

    it('binds a client to each request from the host context: a flag read thrice evaluates once and records one check', async () => {
      const evaluations: string[] = [];
      let checks = 0;
      // Either entry of the client counts: isEnabled evaluates and records its check; getFlag's flag on its first read.
      const isEnabled = instance.client.isEnabled.bind(instance.client);
      vi.spyOn(instance.client, 'isEnabled').mockImplementation((key, context) => {
        evaluations.push(key);
        checks++;
        return isEnabled(key, context);
      });
      const original = instance.client.getFlag.bind(instance.client);
      vi.spyOn(instance.client, 'getFlag').mockImplementation((context, key) => {
        evaluations.push(key);
        const flag = original(context, key);
        return {
          key: flag.key,
          get isEnabled() {
            checks++;
            return flag.isEnabled;
          },
          get config() {
            return flag.config;
          },
          track: () => flag.track(),
        } satisfies Flag;
      });
      expect(await (await get('/memo', { 'x-user': 'u1' })).json()).toEqual({ a: true, b: true, c: true });
      expect({ evaluations, checks }).toEqual({ evaluations: ['beta'], checks: 1 });
      expect(await (await get('/memo', { 'x-user': 'u2' })).json()).toEqual({ a: false, b: false, c: false });
      expect({ evaluations, checks }).toEqual({ evaluations: ['beta', 'beta'], checks: 2 });
      // An async context works the same.
      expect(await (await get('/memo', { 'x-user': 'u1', 'x-context': 'async' })).json()).toEqual({ a: true, b: true, c: true });
    });

    it('reaches the request flags from below the handler through flags.current(), and none outside a request', async () => {
      expect(await (await get('/deep', { 'x-user': 'u1' })).json()).toEqual({ beta: true });
      expect(await (await get('/deep', { 'x-user': 'u2' })).json()).toEqual({ beta: false });
      // Concurrent requests keep their own.
      const both = await Promise.all([get('/deep', { 'x-user': 'u1' }), get('/deep', { 'x-user': 'u2' })].map(async (r) => (await r).json()));
      expect(both).toEqual([{ beta: true }, { beta: false }]);
      expect(instance.current()).toBeUndefined();
    });

    it('guards a route: on passes, off gets the host 404, a redirect, a status or the host handler', async () => {
      const on = { 'x-user': 'u1' };
      expect(await (await get('/beta', on)).json()).toEqual({ beta: true });
      const off = await get('/beta', { 'x-user': 'u2' });
      expect(off.status).toBe(404);
      expect(await off.json()).toEqual({ hostNotFound: true });
      const redirected = await get('/beta-redirect');
      expect([redirected.status, redirected.headers.get('location')]).toEqual([302, '/home']);
      expect((await get('/beta-redirect', on)).status).toBe(200);
      const status = await get('/beta-status');
      expect([status.status, await status.json()]).toEqual([403, { hostError: 403 }]);
      const handled = await get('/beta-handler');
      expect([handled.status, await handled.json()]).toEqual([402, { upgrade: true }]);
    });

    it('answers a throwing or garbage context with a 500 through the host error handler and a log line; the host lives on', async () => {
      for (const mode of ['throw', 'garbage']) {
        const res = await get('/memo', { 'x-context': mode });
        expect(res.status).toBe(500);
        expect(await res.json()).toEqual({ hostError: 500 });
      }
      expect(hostErrors).toHaveLength(2);
      expect(logged.filter((l) => l.level === 'error' && l.message.includes('context function'))).toHaveLength(2);
      expect(await (await get('/memo', { 'x-user': 'u1' })).json()).toEqual({ a: true, b: true, c: true });
    });

    it("bootstraps the request's flags as the in-process client does", async () => {
      const body = await (await get('/bootstrap', { 'x-user': 'u1' })).json();
      expect(body).toEqual(JSON.parse(JSON.stringify(instance.client.getFlagsForBootstrap({ user: { id: 'u1' } }))));
      expect(body.flags.beta).toMatchObject({ key: 'beta', isEnabled: true });
      expect(body.context).toEqual({ enableTracking: true, user: { id: 'u1' } });
      expect(typeof body.flagStateVersion).toBe('number');
    });
  });
}
