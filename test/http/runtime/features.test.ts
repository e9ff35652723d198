import { describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { always, bump, seedFlags, userIs } from './support/seed.js';

const WAIT_MS = 400;

forEachAdapter(
  (h) => {
    const secret = () => h().envs.development.secretKey;

    describe('GET /features', () => {
      it('answers success, an integer flagStateVersion ≥ 0 and every definition field', async () => {
        const dev = h().envs.development.id;
        await seedFlags(h().instance, h().appId, [
          {
            key: 'checkout',
            description: 'New checkout',
            rules: { [dev]: [userIs('u1')] },
            variants: { [dev]: [{ key: 'blue', payload: { color: 'blue' }, filter: always }] },
          },
        ]);
        const res = await h().request('GET', '/features', { key: secret() });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.body.success).toBe(true);
        expect(Number.isInteger(res.body.flagStateVersion)).toBe(true);
        expect(res.body.flagStateVersion).toBeGreaterThanOrEqual(1);
        expect(res.body.features).toHaveLength(1);
        const [feature] = res.body.features;
        expect(feature).toEqual({
          key: 'checkout',
          description: 'New checkout',
          createdAt: expect.any(String),
          link: null,
          targeting: { version: 1, rules: [{ filter: userIs('u1') }] },
          config: { version: 1, variants: [{ key: 'blue', payload: { color: 'blue' }, filter: always }] },
          stage: null,
        });
      });

      it('starts at flagStateVersion 0 on a fresh environment', async () => {
        const res = await h().request('GET', '/features', { key: secret() });
        expect(res.body).toEqual({ success: true, flagStateVersion: 0, features: [] });
      });

      it('does not serve archived flags', async () => {
        await seedFlags(h().instance, h().appId, [{ key: 'live' }, { key: 'gone', archived: true }]);
        const res = await h().request('GET', '/features', { key: secret() });
        expect(res.body.features.map((f: { key: string }) => f.key)).toEqual(['live']);
        const evaluated = await h().request('GET', '/features/evaluated', { key: secret() });
        expect(Object.keys(evaluated.body.features)).toEqual(['live']);
      });

      it('serves the stage object of a flag', async () => {
        const [stage] = await h().storage.stages.listByApp(h().appId);
        await seedFlags(h().instance, h().appId, [{ key: 'staged', stageId: stage!.id }]);
        const res = await h().request('GET', '/features', { key: secret() });
        expect(res.body.features[0].stage).toEqual({ id: stage!.id, name: stage!.name, color: stage!.color, order: stage!.order });
      });

      it('waitForVersion already reached answers at once', async () => {
        const started = Date.now();
        const res = await h().request('GET', '/features', { key: secret(), query: { waitForVersion: 0 } });
        expect(res.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(WAIT_MS);
      });

      it('waitForVersion holds until the version arrives', async () => {
        const dev = h().envs.development.id;
        const pending = h().request('GET', '/features', { key: secret(), query: { waitForVersion: 1 } });
        await new Promise((r) => setTimeout(r, 50));
        const version = await bump(h().instance, h().appId, dev);
        const res = await pending;
        expect(version).toBe(1);
        expect(res.body.flagStateVersion).toBe(1);
      });

      it('waitForVersion gives up after the timeout and answers with what it has', async () => {
        const started = Date.now();
        const res = await h().request('GET', '/features', { key: secret(), query: { waitForVersion: 99 } });
        expect(res.status).toBe(200);
        expect(res.body.flagStateVersion).toBe(0);
        expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 50);
      });

      it('waitForVersion lets go of a request whose client went away', async () => {
        const client = new AbortController();
        const url = `${h().baseUrl}/features?waitForVersion=99`;
        const pending = fetch(url, { headers: { authorization: `Bearer ${secret()}` }, signal: client.signal }).catch(() => 'aborted');
        const snapshots = h().instance.services.snapshots;
        for (let i = 0; i < 50 && snapshots.pendingWaits === 0; i++) await new Promise((r) => setTimeout(r, 10));
        expect(snapshots.pendingWaits).toBe(1);
        client.abort();
        expect(await pending).toBe('aborted');
        // Well before the 400 ms timeout would have released it anyway.
        for (let i = 0; i < 15 && snapshots.pendingWaits > 0; i++) await new Promise((r) => setTimeout(r, 10));
        expect(snapshots.pendingWaits).toBe(0);
      });

      it('waitForVersion must be an integer ≥ 0 up to 2^53 − 1, written plainly; every refusal says so alike', async () => {
        for (const bad of ['-1', '-0', '1.5', 'abc', '', '05', '1e3', '9007199254740992']) {
          const res = await h().request('GET', '/features', { key: secret(), query: { waitForVersion: bad } });
          expect(res.status, bad).toBe(400);
          expect(res.body.error).toEqual({ code: 'invalid_request', message: 'Invalid query parameters' });
          expect(Object.keys(res.body.issues)).toEqual(['waitForVersion']);
        }
        // The largest one is a version like any other: held until the timeout, then answered.
        const res = await h().request('GET', '/features', { key: secret(), query: { waitForVersion: '9007199254740991' } });
        expect(res.status).toBe(200);
      });

      it('ignores unknown query parameters', async () => {
        const res = await h().request('GET', '/features', { key: secret(), query: { 'reflag-sdk-version': 'node-sdk/1.7.1', x: 'y' } });
        expect(res.status).toBe(200);
      });
    });

    describe('waitForVersion on /features/evaluated', () => {
      it('holds, then serves the new targeting', async () => {
        const dev = h().envs.development.id;
        const pending = h().request('GET', '/features/evaluated', {
          key: h().envs.development.publishableKey,
          query: { waitForVersion: 1, 'context.user.id': 'u1' },
        });
        await new Promise((r) => setTimeout(r, 50));
        await seedFlags(h().instance, h().appId, [{ key: 'f', rules: { [dev]: [userIs('u1')] } }]);
        const res = await pending;
        expect(res.body.flagStateVersion).toBe(1);
        expect(res.body.features.f.isEnabled).toBe(true);
      });

      it('a context error is answered at once, not after the wait', async () => {
        const started = Date.now();
        const res = await h().request('GET', '/features/evaluated', {
          key: h().envs.development.publishableKey,
          query: { waitForVersion: 50, contextJson: '{' },
        });
        expect(res.status).toBe(400);
        expect(Date.now() - started).toBeLessThan(WAIT_MS);
      });
    });
  },
  { options: { waitForVersionTimeoutMs: WAIT_MS } },
);
