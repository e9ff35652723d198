import { describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { seedFlags, userIs } from './support/seed.js';

/** A contextJson of exactly `bytes` UTF-8 bytes. */
function contextOfBytes(bytes: number): string {
  const base = JSON.stringify({ user: { id: 'u1', pad: '' } });
  const text = JSON.stringify({ user: { id: 'u1', pad: 'x'.repeat(bytes - base.length) } });
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

forEachAdapter((h) => {
  const get = (query: Record<string, string | string[]>, path = '/features/evaluated') =>
    h().request('GET', path, { key: h().envs.development.publishableKey, query });

  const expect400 = async (query: Record<string, string | string[]>, field?: string) => {
    for (const path of ['/features/evaluated', '/features/enabled']) {
      const res = await get(query, path);
      expect(res.status, `${path} ${JSON.stringify(query).slice(0, 120)}`).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      if (field) expect(Object.keys(res.body.issues ?? {})).toContain(field);
    }
  };

  describe('context input rules (runtime-api.md, GET /features/evaluated)', () => {
    it('rule 1: contextJson up to 16384 decoded bytes is accepted; 16385 is a 400', async () => {
      const dev = h().envs.development.id;
      await seedFlags(h().instance, h().appId, [{ key: 'f', rules: { [dev]: [userIs('u1')] } }]);
      const ok = await get({ contextJson: contextOfBytes(16384) });
      expect(ok.status).toBe(200);
      expect(ok.body.features.f.isEnabled).toBe(true);
      await expect400({ contextJson: contextOfBytes(16385) }, 'contextJson');
    });

    it('rule 1: arrays in contextJson are preserved', async () => {
      const dev = h().envs.development.id;
      const hasBeta = { type: 'context' as const, field: 'company.tags', operator: 'CONTAINS' as const, values: ['beta'] };
      await seedFlags(h().instance, h().appId, [{ key: 'f', rules: { [dev]: [hasBeta] } }]);
      const res = await get({ contextJson: JSON.stringify({ company: { id: 'c', tags: ['alpha', 'beta'] } }) });
      expect(res.body.features.f.isEnabled).toBe(true);
    });

    it('rule 3: invalid JSON is a 400', async () => {
      await expect400({ contextJson: '{"user":' }, 'contextJson');
      await expect400({ contextJson: 'not json' }, 'contextJson');
    });

    it('rule 3: contextJson sent twice is a 400', async () => {
      await expect400({ contextJson: ['{}', '{}'] }, 'contextJson');
    });

    it('rule 3: contextJson with context or context.* parameters is a 400', async () => {
      await expect400({ contextJson: '{}', 'context.user.id': 'u1' }, 'contextJson');
      await expect400({ contextJson: '{}', context: '{}' }, 'contextJson');
    });

    it('context rules: ids are strings or numbers, not arrays or objects', async () => {
      expect((await get({ contextJson: '{"user":{"id":"u1"},"company":{"id":5}}' })).status).toBe(200);
      await expect400({ contextJson: '{"user":{"id":["u1"]}}' }, 'contextJson.user.id');
      await expect400({ contextJson: '{"company":{"id":{"a":1}}}' }, 'contextJson.company.id');
      await expect400({ contextJson: '{"user":{"id":true}}' }, 'contextJson.user.id');
      await expect400({ 'context.user.id': ['a', 'b'] }, 'context.user.id');
    });

    it('context rules: attribute values are strings, numbers, booleans, null or arrays', async () => {
      const ok = await get({ contextJson: '{"user":{"s":"x","n":1.5,"b":false,"z":null,"a":[1,"x",null]},"other":{"o":true}}' });
      expect(ok.status).toBe(200);
    });

    it('context rules: one level of nesting is allowed, deeper is a 400', async () => {
      expect((await get({ contextJson: '{"user":{"profile":{"roles":["a"],"tier":"gold"}}}' })).status).toBe(200);
      await expect400({ contextJson: '{"user":{"profile":{"deep":{"x":1}}}}' }, 'contextJson.user.profile');
      await expect400({ 'context.user.profile.deep.x': '1' });
      // Objects or arrays inside an array are nesting too, at either level.
      await expect400({ contextJson: '{"user":{"r":[{"a":{"b":1}}]}}' }, 'contextJson.user.r');
      await expect400({ contextJson: '{"user":{"profile":{"r":[{"x":1}]}}}' }, 'contextJson.user.profile');
      await expect400({ contextJson: '{"other":{"m":[[1]]}}' }, 'contextJson.other.m');
    });

    it('context rules: user, company and other are objects; nothing else at the top', async () => {
      await expect400({ contextJson: '{"user":"u1"}' }, 'contextJson.user');
      await expect400({ contextJson: '[]' }, 'contextJson');
      await expect400({ contextJson: 'null' }, 'contextJson');
      await expect400({ contextJson: '{"tenant":{"id":"t"}}' });
    });

    it('legacy parameters: an empty user, company or other (the node SDK flattens {} to "") is an empty object', async () => {
      const dev = h().envs.development.id;
      await seedFlags(h().instance, h().appId, [{ key: 'f', rules: { [dev]: [userIs('u-1')] } }]);
      for (const member of ['other', 'company', 'user']) {
        const res = await get({ ...(member === 'user' ? {} : { 'context.user.id': 'u-1' }), [`context.${member}`]: '' });
        expect(res.status, member).toBe(200);
        expect(res.body.features.f.isEnabled, member).toBe(member !== 'user');
      }
      // An empty attribute stays the present empty string it was.
      expect((await get({ 'context.user.id': 'u-1', 'context.user.plan': '' })).status).toBe(200);
    });

    it('rule 2 (decision): legacy indexed parameters are rebuilt into arrays, never a 400', async () => {
      const res = await get({ 'context.user.id': 'u1', 'context.user.roles.0': 'a', 'context.user.roles.1': 'b', 'context.user.roles.3': 'd' });
      expect(res.status).toBe(200);
      const gap = await get({ 'context.user.roles.1': 'b' });
      expect(gap.status).toBe(200);
    });

    it('unknown query parameters are ignored', async () => {
      const res = await get({ 'reflag-sdk-version': 'browser-sdk/1.6.1', foo: 'bar', contexts: 'x' });
      expect(res.status).toBe(200);
    });

    it('a contextJson URL near the limit fits the host header limit (maxHeaderSize 65536)', async () => {
      const heavy = JSON.stringify({ user: { id: 'u1', pad: '"'.repeat(4000) } });
      expect(Buffer.byteLength(heavy)).toBeLessThanOrEqual(16384);
      // Each `"` is escaped in JSON and again in the URL: far more than 16 KiB on the wire.
      const res = await get({ contextJson: heavy });
      expect(res.status).toBe(200);
    });
  });
});
