import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { createFlag, everyone, setTargeting, userIs } from './support/flags.js';

/** The OFREP wire format, checked on raw HTTP (the provider tests check what the published clients make of it). */
describe('OFREP over HTTP', () => {
  let h: Harness;
  const secret = () => h.envs.development.secretKey;
  const single = (key: string, context: unknown, bearer = secret()) =>
    h.request('POST', `/ofrep/v1/evaluate/flags/${encodeURIComponent(key)}`, { key: bearer, body: { context } });
  const bulk = (context: unknown, headers: Record<string, string> = {}, bearer = secret()) =>
    h.request('POST', '/ofrep/v1/evaluate/flags', { key: bearer, body: { context }, headers });

  beforeEach(async () => {
    h = await startHarness(expressFactory);
  });
  afterEach(() => h.close());

  it('answers one flag with key, value, reason, variant and primitive metadata', async () => {
    await createFlag(h, { key: 'beta', rules: [userIs('u1')] });
    const on = await single('beta', { targetingKey: 'u1' });
    expect(on.status).toBe(200);
    expect(on.headers.get('content-type')).toMatch(/^application\/json/);
    expect(on.body).toEqual({
      key: 'beta',
      value: true,
      reason: 'TARGETING_MATCH',
      variant: 'on',
      metadata: { isEnabled: true, targetingVersion: 1, remoteContextUsed: false },
    });
    const off = await single('beta', { targetingKey: 'u2' });
    expect(off.body).toMatchObject({ value: false, reason: 'DEFAULT', variant: 'off' });
  });

  it('maps targetingKey, companyId, company.* and nested members onto the Flagmount context', async () => {
    await createFlag(h, {
      key: 'enterprise',
      rules: [
        {
          type: 'group',
          operator: 'and',
          filters: [
            { type: 'context', field: 'company.id', operator: 'IS', values: ['acme'] },
            { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] },
            { type: 'context', field: 'user.role', operator: 'IS', values: ['admin'] },
            { type: 'context', field: 'other.region', operator: 'IS', values: ['eu'] },
          ],
        },
      ],
    });
    const flat = await single('enterprise', { targetingKey: 'u1', companyId: 'acme', 'company.plan': 'enterprise', role: 'admin', 'other.region': 'eu' });
    expect(flat.body.value).toBe(true);
    const nested = await single('enterprise', { targetingKey: 'u1', company: { id: 'acme', plan: 'enterprise' }, user: { role: 'admin' }, other: { region: 'eu' } });
    expect(nested.body.value).toBe(true);
    const missing = await single('enterprise', { targetingKey: 'u1', companyId: 'acme' });
    expect(missing.body).toMatchObject({ value: false, reason: 'DEFAULT' });
    expect(missing.body.metadata.missingContextFields).toContain('company.plan');
  });

  it('answers the payload of a matched config variant, the variant key as variant', async () => {
    await createFlag(h, {
      key: 'theme',
      rules: [everyone],
      variants: [
        { key: 'dark', payload: { color: 'black', size: 2 }, filter: userIs('u1') },
        { key: 'light', payload: { color: 'white', size: 1 }, filter: everyone },
      ],
    });
    const dark = await single('theme', { targetingKey: 'u1' });
    expect(dark.body).toMatchObject({ value: { color: 'black', size: 2 }, variant: 'dark', reason: 'TARGETING_MATCH' });
    expect(dark.body.metadata).toMatchObject({ isEnabled: true, configKey: 'dark', configVersion: 1 });
    expect((await single('theme', { targetingKey: 'u2' })).body).toMatchObject({ value: { color: 'white', size: 1 }, variant: 'light' });
  });

  it('reports a partial rollout match as SPLIT', async () => {
    await createFlag(h, {
      key: 'rollout',
      rules: [{ type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50_000 }],
    });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => single('rollout', { targetingKey: `user-${i}` })));
    const on = answers.filter((a) => a.body.value === true);
    expect(on.length).toBeGreaterThan(0);
    expect(on.length).toBeLessThan(20);
    for (const a of on) expect(a.body.reason).toBe('SPLIT');
  });

  it('answers FLAG_NOT_FOUND (404) and INVALID_CONTEXT (400) in the OFREP error shape', async () => {
    await createFlag(h, { key: 'beta', rules: [everyone] });
    const unknown = await single('nope', { targetingKey: 'u1' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: expect.any(String) });

    for (const context of [{ targetingKey: 42 }, { targetingKey: 'u', profile: { deep: { er: 1 } } }, 'a string']) {
      const bad = await single('beta', context);
      expect(bad.status, JSON.stringify(context)).toBe(400);
      expect(bad.body).toMatchObject({ key: 'beta', errorCode: 'INVALID_CONTEXT' });
      const bulkBad = await bulk(context);
      expect(bulkBad.status).toBe(400);
      expect(bulkBad.body).toMatchObject({ errorCode: 'INVALID_CONTEXT' });
    }
  });

  it('answers a body that is no evaluation request with PARSE_ERROR, a schema-refused context with INVALID_CONTEXT', async () => {
    await createFlag(h, { key: 'beta', rules: [everyone] });
    const raw = (path: string, rawBody: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      h.request('POST', path, { key: secret(), rawBody, headers });
    for (const [rawBody, headers] of [['{bad', undefined], ['[]', undefined], ['null', undefined], ['{"context":{}}', { 'content-type': 'text/plain' }]] as const) {
      const one = await raw('/ofrep/v1/evaluate/flags/beta', rawBody, headers);
      expect(one.status, rawBody).toBe(400);
      expect(one.body).toEqual({ key: 'beta', errorCode: 'PARSE_ERROR', errorDetails: expect.any(String) });
      // The message once, not repeated by the issue that says the same.
      expect(one.body.errorDetails.split('not valid JSON').length).toBeLessThanOrEqual(2);
      const all = await raw('/ofrep/v1/evaluate/flags', rawBody, headers);
      expect(all.status, rawBody).toBe(400);
      expect(all.body).toEqual({ errorCode: 'PARSE_ERROR', errorDetails: expect.any(String) });
    }
    const listContext = await raw('/ofrep/v1/evaluate/flags/beta', '{"context":[]}');
    expect(listContext.body).toMatchObject({ key: 'beta', errorCode: 'INVALID_CONTEXT' });
  });

  it('answers 401 when no key is sent at all, 403 for a key it refuses', async () => {
    await createFlag(h, { key: 'beta', rules: [everyone] });
    const none = await h.request('POST', '/ofrep/v1/evaluate/flags/beta', { key: null, body: { context: {} } });
    expect(none.status).toBe(401);
    expect((await h.request('POST', '/ofrep/v1/evaluate/flags', { key: null, body: { context: {} } })).status).toBe(401);
    for (const authorization of ['Basic abc', 'Bearer ', '']) {
      const res = await h.request('POST', '/ofrep/v1/evaluate/flags/beta', { key: null, body: { context: {} }, headers: { authorization } });
      expect(res.status, authorization).toBe(401);
    }
    expect((await single('beta', {}, 'not-a-key')).status).toBe(403);
  });

  it('accepts the publishable key as well, hides secret flags from it, and refuses other keys with 403', async () => {
    await createFlag(h, { key: 'public', rules: [everyone] });
    await createFlag(h, { key: 'hidden', secret: true, rules: [everyone] });
    const pk = h.envs.development.publishableKey;
    expect((await single('public', {}, pk)).body.value).toBe(true);
    expect((await single('hidden', {}, pk)).status).toBe(404);
    expect((await single('hidden', {})).body.value).toBe(true);
    expect((await bulk({}, {}, pk)).body.flags.map((f: { key: string }) => f.key)).toEqual(['public']);
    expect((await single('public', {}, 'not-a-key')).status).toBe(403);
    expect((await single('public', {}, h.managementKey)).status).toBe(403);
    // Flags belong to the app: Production knows the flag but has no rules for it.
    expect((await single('public', {}, h.envs.production.secretKey)).body).toMatchObject({ value: false, reason: 'DEFAULT' });
  });

  it('merges stored user attributes under the sent context', async () => {
    await createFlag(h, { key: 'pro', rules: [{ type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] }] });
    const stored = await h.request('POST', '/user', { key: secret(), body: { userId: 'u9', attributes: { plan: 'pro' } } });
    expect(stored.status).toBe(200);
    const res = await single('pro', { targetingKey: 'u9' });
    expect(res.body).toMatchObject({ value: true, metadata: { remoteContextUsed: true } });
    expect((await single('pro', { targetingKey: 'u9', plan: 'free' })).body.value).toBe(false);
  });

  it('evaluates every flag in bulk, with an ETag that turns into 304 until the answer changes', async () => {
    await createFlag(h, { key: 'a', rules: [userIs('u1')] });
    await createFlag(h, { key: 'b', rules: [everyone] });
    const first = await bulk({ targetingKey: 'u1' });
    expect(first.status).toBe(200);
    expect(first.body.flags).toEqual([
      expect.objectContaining({ key: 'a', value: true }),
      expect.objectContaining({ key: 'b', value: true }),
    ]);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const same = await bulk({ targetingKey: 'u1' }, { 'if-none-match': etag });
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    expect(same.headers.get('etag')).toBe(etag);
    expect((await bulk({ targetingKey: 'u1' }, { 'if-none-match': `W/${etag}` })).status).toBe(304);
    // Another user gets another answer, so another tag.
    expect((await bulk({ targetingKey: 'u2' }, { 'if-none-match': etag })).status).toBe(200);

    await setTargeting(h, 'a', []);
    const changed = await bulk({ targetingKey: 'u1' }, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.flags[0]).toMatchObject({ key: 'a', value: false });
  });

  it('accepts an empty body and a missing context as an empty context', async () => {
    await createFlag(h, { key: 'b', rules: [everyone] });
    const res = await h.request('POST', '/ofrep/v1/evaluate/flags/b', { key: secret() });
    expect(res.status).toBe(200);
    expect((await h.request('POST', '/ofrep/v1/evaluate/flags', { key: secret(), body: {} })).body.flags).toHaveLength(1);
  });

  it('answers CORS preflights from browsers (web providers send Authorization and read the ETag)', async () => {
    const res = await fetch(`${h.baseUrl}/ofrep/v1/evaluate/flags`, {
      method: 'OPTIONS',
      headers: { origin: 'http://elsewhere.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, if-none-match' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://elsewhere.test');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/if-none-match/);
    await createFlag(h, { key: 'b', rules: [everyone] });
    const actual = await bulk({}, { origin: 'http://elsewhere.test' });
    expect(actual.headers.get('access-control-expose-headers')).toMatch(/etag/);
  });
});
