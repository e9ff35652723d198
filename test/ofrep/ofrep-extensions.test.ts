import { describe, expect, it, vi } from 'vitest';
import { forEachAdapter, type Harness } from '../http/support/harness.js';
import { createFlag, everyone, userIs } from './support/flags.js';

/** Rows mentioning a flag key in every table of the store: what recording a check of that flag wrote. */
async function rowsOf(h: Harness, flagKey: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [table, rows] of Object.entries(await h.dump())) {
    const n = rows.filter((row) => (row as Record<string, unknown>)['flagKey'] === flagKey).length;
    if (n) counts[table] = n;
  }
  return counts;
}

const lastCheckAt = async (h: Harness, flagKey: string) => {
  const list = await h.request('GET', `/apps/${h.appId}/flags`, { query: { envId: h.envs.development.id } });
  return list.body.data.find((f: { key: string }) => f.key === flagKey)?.lastCheckAt as string | undefined;
};

/** OFREP's configuration, OFREP checks and the OpenFeature CLI manifest, on every adapter. */
describe('OFREP configuration and checks, OpenFeature manifest', () => {
  forEachAdapter((harness) => {
    const secret = () => harness().envs.development.secretKey;

    it('GET /ofrep/v1/configuration answers the capabilities document, with an ETag and 304', async () => {
      const h = harness();
      const res = await h.request('GET', '/ofrep/v1/configuration', { key: secret() });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        name: 'flagmount',
        capabilities: {
          cacheInvalidation: { polling: { enabled: true, minPollingIntervalMs: 1000 } },
          flagEvaluation: { supportedTypes: ['boolean', 'string', 'int', 'float', 'object'] },
        },
      });
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await h.request('GET', '/ofrep/v1/configuration', { key: h.envs.production.publishableKey, headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect((await h.request('GET', '/ofrep/v1/configuration', { key: null })).status).toBe(401);
      expect((await h.request('GET', '/ofrep/v1/configuration', { key: 'sec_fm_not_a_key_of_this_store_000000' })).status).toBe(403);
      expect((await h.request('GET', '/ofrep/v1/configuration', { key: h.managementKey })).status).toBe(403);
    });

    it('records a single evaluation as a check, the same way POST /features/events records one', async () => {
      const h = harness();
      await createFlag(h, { key: 'beta', rules: [userIs('u1')] });
      await createFlag(h, { key: 'gamma', rules: [userIs('u1')] });
      expect(await lastCheckAt(h, 'beta')).toBeUndefined();
      const evaluated = await h.request('POST', '/ofrep/v1/evaluate/flags/beta', { key: secret(), body: { context: { targetingKey: 'u1' } } });
      expect(evaluated.body.value).toBe(true);
      const sent = await h.request('POST', '/features/events', {
        key: secret(),
        body: { action: 'check', key: 'gamma', targetingVersion: 1, evalContext: { user: { id: 'u1' } }, evalResult: true, evalRuleResults: [true], evalMissingFields: [] },
      });
      expect(sent.status).toBe(200);
      // The evaluation answers before its check commits: wait for it.
      await vi.waitFor(async () => expect(await lastCheckAt(h, 'beta')).toBeDefined(), { timeout: 5000 });
      expect(await rowsOf(h, 'beta')).toEqual(await rowsOf(h, 'gamma'));
      expect(Object.keys(await rowsOf(h, 'beta')).length).toBeGreaterThan(0);
    });

    it('records a config answer as a config check, and nothing for an unknown flag', async () => {
      const h = harness();
      await createFlag(h, { key: 'theme', rules: [everyone], variants: [{ key: 'dark', payload: { color: 'black' }, filter: everyone }] });
      await createFlag(h, { key: 'beta', rules: [userIs('u1')] });
      await h.request('POST', '/ofrep/v1/evaluate/flags/theme', { key: secret(), body: { context: { targetingKey: 'u1' } } });
      expect((await h.request('POST', '/ofrep/v1/evaluate/flags/nope', { key: secret(), body: { context: {} } })).status).toBe(404);
      await vi.waitFor(async () => expect(await lastCheckAt(h, 'theme')).toBeDefined(), { timeout: 5000 });
      const events = Object.values(await h.dump()).flat() as Array<Record<string, unknown>>;
      const raw = events.filter((e) => 'action' in e && e['flagKey'] === 'theme');
      if (raw.length) expect(raw.map((e) => e['action'])).toEqual(['check-config']);
      expect(events.some((e) => e['flagKey'] === 'nope')).toBe(false);
    });

    it('records bulk answers as evaluate events, once per answer received (not on 304)', async () => {
      const h = harness();
      await createFlag(h, { key: 'beta', rules: [userIs('u1')] });
      const first = await h.request('POST', '/ofrep/v1/evaluate/flags', { key: secret(), body: { context: { targetingKey: 'u1' } } });
      expect(first.status).toBe(200);
      await vi.waitFor(async () => expect(await lastCheckAt(h, 'beta')).toBeDefined(), { timeout: 5000 });
      const before = await rowsOf(h, 'beta');
      const etag = first.headers.get('etag')!;
      const cached = await h.request('POST', '/ofrep/v1/evaluate/flags', { key: secret(), body: { context: { targetingKey: 'u1' } }, headers: { 'if-none-match': etag } });
      expect(cached.status).toBe(304);
      // Checks commit in order: once a later one is stored, a 304 would have stored its own before it.
      await createFlag(h, { key: 'marker', rules: [everyone] });
      await h.request('POST', '/ofrep/v1/evaluate/flags/marker', { key: secret(), body: { context: { targetingKey: 'u1' } } });
      await vi.waitFor(async () => expect(await lastCheckAt(h, 'marker')).toBeDefined(), { timeout: 5000 });
      expect(await rowsOf(h, 'beta')).toEqual(before);
      const raw = (Object.values(await h.dump()).flat() as Array<Record<string, unknown>>).filter((e) => 'action' in e && e['flagKey'] === 'beta');
      if (raw.length) expect(raw.map((e) => e['action'])).toEqual(['evaluate']);
    });

    it('GET /openfeature/v0/manifest answers the OpenFeature CLI manifest of the first app, typed from the payloads', async () => {
      const h = harness();
      const made = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'search', name: 'Search', description: 'The new search' } });
      expect(made.status).toBe(200);
      await createFlag(h, { key: 'banner', variants: [{ key: 'sale', payload: 'Summer sale', filter: everyone }] });
      await createFlag(h, { key: 'retries', variants: [{ key: 'three', payload: 3, filter: everyone }] });
      await createFlag(h, { key: 'ratio', variants: [{ key: 'a', payload: 1, filter: userIs('u1') }, { key: 'b', payload: 0.5, filter: everyone }] });
      await createFlag(h, { key: 'limits', variants: [{ key: 'big', payload: { max: 100 }, filter: everyone }] });
      await createFlag(h, { key: 'mixed', variants: [{ key: 'a', payload: 'x', filter: userIs('u1') }, { key: 'b', payload: 2, filter: everyone }] });
      const old = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'old', name: 'old' } });
      expect((await h.request('PATCH', `/apps/${h.appId}/flags/${old.body.flag.id}`, { body: { isArchived: true } })).status).toBe(200);
      // A payload set in another environment only still types the flag.
      const prod = await h.request('PUT', `/apps/${h.appId}/flags/search/targeting/${h.envs.production.id}`, { body: { rules: [] } });
      expect(prod.status).toBe(200);

      const res = await h.request('GET', '/openfeature/v0/manifest');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-manifest-capabilities')).toBe('read');
      expect(res.body).toEqual({
        flags: [
          { key: 'banner', name: 'banner', type: 'string', defaultValue: '' },
          { key: 'limits', name: 'limits', type: 'object', defaultValue: {} },
          { key: 'mixed', name: 'mixed', type: 'object', defaultValue: {} },
          { key: 'ratio', name: 'ratio', type: 'float', defaultValue: 0 },
          { key: 'retries', name: 'retries', type: 'integer', defaultValue: 0 },
          { key: 'search', name: 'Search', type: 'boolean', description: 'The new search', defaultValue: false },
        ],
      });
      const byApp = await h.request('GET', `/apps/${h.appId}/openfeature/v0/manifest`);
      expect(byApp.body).toEqual(res.body);
    });

    it('the manifest takes a management key with read, never an SDK key', async () => {
      const h = harness();
      expect((await h.request('GET', '/openfeature/v0/manifest', { key: null })).status).toBe(401);
      expect((await h.request('GET', '/openfeature/v0/manifest', { key: secret() })).status).toBe(401);
      expect((await h.request('GET', '/apps/ap_nope_000000/openfeature/v0/manifest')).status).toBe(404);
      const limited = await h.request('POST', '/keys', { body: { name: 'entities only', scopes: ['write:entities'] } });
      expect(limited.status, limited.text).toBe(200);
      expect((await h.request('GET', '/openfeature/v0/manifest', { key: limited.body.secret })).status).toBe(403);
    });
  });
});
