import { describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';

/** Every runtime route with a body that passes validation, so only the key decides the status. */
const ROUTES: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown; secretOnly?: boolean; stream?: boolean }> = [
  { method: 'GET', path: '/features', secretOnly: true },
  { method: 'GET', path: '/features/evaluated' },
  { method: 'GET', path: '/features/enabled' },
  { method: 'POST', path: '/features/events', body: { action: 'check', key: 'f', evalResult: true } },
  { method: 'POST', path: '/user', body: { userId: 'u1' } },
  { method: 'POST', path: '/company', body: { companyId: 'c1' } },
  { method: 'POST', path: '/event', body: { userId: 'u1', event: 'e' } },
  { method: 'POST', path: '/feedback', body: { userId: 'u1', score: 3 } },
  { method: 'POST', path: '/bulk', body: [] },
  { method: 'POST', path: '/feedback/prompting-init', body: { userId: 'u1' } },
  { method: 'POST', path: '/feedback/prompt-events', body: { action: 'shown', userId: 'u1' } },
];

forEachAdapter((h) => {
  describe('SDK keys (runtime-api.md, Authentication)', () => {
    for (const route of ROUTES) {
      it(`${route.method} ${route.path}: 403 without a key and with an unknown key`, async () => {
        const none = await h().request(route.method, route.path, { key: null, body: route.body });
        expect(none.status).toBe(403);
        expect(none.body.error.code).toBe('unauthorized');
        const wrong = await h().request(route.method, route.path, { key: 'sec_fm_not_a_real_key_0123456789abcdef', body: route.body });
        expect(wrong.status).toBe(403);
        // A management key is not an SDK key.
        const management = await h().request(route.method, route.path, { key: h().managementKey, body: route.body });
        expect(management.status).toBe(403);
      });

      it(`${route.method} ${route.path}: secret key in the header → 200`, async () => {
        const res = await h().request(route.method, route.path, { key: h().envs.development.secretKey, body: route.body });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
      });

      it(`${route.method} ${route.path}: publishable key → ${route.secretOnly ? 403 : 200}`, async () => {
        const res = await h().request(route.method, route.path, { key: h().envs.development.publishableKey, body: route.body });
        expect(res.status).toBe(route.secretOnly ? 403 : 200);
      });
    }

    it('accepts the publishable key as ?publishableKey= and refuses a secret key there', async () => {
      const { publishableKey, secretKey } = h().envs.development;
      const ok = await h().request('GET', '/features/evaluated', { key: null, query: { publishableKey } });
      expect(ok.status).toBe(200);
      const post = await h().request('POST', '/user', { key: null, query: { publishableKey }, body: { userId: 'u1' } });
      expect(post.status).toBe(200);
      const secretInQuery = await h().request('GET', '/features/evaluated', { key: null, query: { publishableKey: secretKey } });
      expect(secretInQuery.status).toBe(403);
      const featuresInQuery = await h().request('GET', '/features', { key: null, query: { publishableKey: secretKey } });
      expect(featuresInQuery.status).toBe(403);
      const twice = await h().request('GET', '/features/evaluated', { key: null, query: { publishableKey: [publishableKey, publishableKey] } });
      expect(twice.status).toBe(403);
    });

    it('checks a key in the query even when the header has one: never a secret, never an invalid or foreign one', async () => {
      const { publishableKey, secretKey } = h().envs.development;
      const withHeader = (inQuery: string, key = secretKey) =>
        h().request('GET', '/features/evaluated', { key, query: { publishableKey: inQuery, key: 'f' } });
      expect((await withHeader(publishableKey)).status).toBe(200);
      expect((await withHeader(secretKey, publishableKey)).status).toBe(403);
      expect((await withHeader(secretKey)).status).toBe(403);
      expect((await withHeader('pub_fm_not_a_real_key_0123456789abcdef')).status).toBe(403);
      const foreign = await withHeader(h().envs.production.publishableKey);
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe('unauthorized');
      const features = await h().request('GET', '/features', { key: secretKey, query: { publishableKey } });
      expect(features.status).toBe(200);
    });

    it('keys select their own environment', async () => {
      const dev = await h().request('GET', '/features', { key: h().envs.development.secretKey });
      const prod = await h().request('GET', '/features', { key: h().envs.production.secretKey });
      expect(dev.status).toBe(200);
      expect(prod.status).toBe(200);
      const stored = await h().storage.environments.get(h().envs.production.id);
      expect(prod.body.flagStateVersion).toBe(stored!.flagStateVersion);
    });

    it('403 bodies carry the error body shape', async () => {
      const res = await h().request('GET', '/features', { key: h().envs.development.publishableKey });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    });
  });

  describe('CORS (browser SDK from another origin)', () => {
    it('preflight allows authorization, content-type and reflag-sdk-version, with credentials', async () => {
      const res = await fetch(`${h().baseUrl}/bulk`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,reflag-sdk-version',
        },
      });
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
      // `*` would not cover authorization (Fetch standard): it must be named.
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'reflag-sdk-version']));
      expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
    });

    for (const path of ['/features/evaluated', '/features/enabled', '/user', '/flags/opt-in', '/sse/client']) {
      it(`preflight of ${path} succeeds`, async () => {
        const res = await fetch(`${h().baseUrl}${path}`, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example.com', 'access-control-request-method': path.startsWith('/features/') || path === '/sse/client' ? 'GET' : 'POST' },
        });
        expect(res.status).toBeLessThan(300);
        expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      });
    }

    it('actual responses carry the CORS headers, errors included', async () => {
      const origin = 'https://app.example.com';
      const ok = await h().request('GET', '/features/evaluated', { key: null, headers: { origin }, query: { publishableKey: h().envs.development.publishableKey } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
      const denied = await h().request('GET', '/features/evaluated', { key: null, headers: { origin } });
      expect(denied.status).toBe(403);
      expect(denied.headers.get('access-control-allow-origin')).toBe(origin);
      const invalid = await h().request('POST', '/user', { key: h().envs.development.publishableKey, headers: { origin }, body: {} });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('access-control-allow-origin')).toBe(origin);
    });
  });
});
