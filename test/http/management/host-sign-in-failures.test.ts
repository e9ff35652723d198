import { beforeEach, describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { expectError, expectNothingStored } from './support/management.js';

/** What the host's `authenticate` does, chosen per request by a test header. */
const modes: Record<string, () => unknown> = {
  throw: () => {
    throw new Error('session store down');
  },
  reject: () => Promise.reject(new Error('session store down')),
  garbage: () => 'alice',
  'no-role': () => ({ id: 'alice', name: 'Alice' }),
  'bad-role': () => ({ id: 'alice', name: 'Alice', role: 'superuser' }),
  'bad-env-role': () => ({ id: 'alice', name: 'Alice', role: 'viewer', environments: { Production: 'root' } }),
  'no-id': () => ({ name: 'Alice', role: 'admin' }),
  ok: () => ({ id: 'alice', name: 'Alice', role: 'admin' }),
};

const logged: Array<{ level: string; message: string }> = [];
const logger = (message: string, _fields: unknown, level: string) => void logged.push({ level, message });

forEachAdapter(
  (harness) => {
    describe('an authenticate that fails', () => {
      beforeEach(() => void (logged.length = 0));
      const as = (mode: string, method = 'GET') => ({ key: null, headers: { 'x-auth-mode': mode, ...(method !== 'GET' ? { 'sec-fetch-site': 'same-origin' } : {}) } });

      it('takes a throwing or rejecting authenticate for "not signed in": 401, logged, the host still answers', async () => {
        const h = harness();
        for (const mode of ['throw', 'reject']) {
          expectError(await h.request('GET', '/apps', as(mode)), 401, 'unauthenticated');
        }
        expect(logged.filter((l) => l.level === 'warn' && l.message.includes('authenticate threw'))).toHaveLength(2);
        const ping = await fetch(`${h.origin}/host/ping`);
        expect(ping.status).toBe(200);
      });

      it('answers garbage with 500 and a log line, never letting anybody in', async () => {
        const h = harness();
        await expectNothingStored(h, async () => {
          for (const mode of ['garbage', 'no-role', 'bad-role', 'bad-env-role', 'no-id']) {
            expectError(await h.request('GET', '/apps', as(mode)), 500, 'unknown_error');
            expectError(await h.request('POST', `/apps/${h.appId}/flags`, { ...as(mode, 'POST'), body: { key: 'x', name: 'x' } }), 500, 'unknown_error');
          }
        });
        expect(logged.filter((l) => l.level === 'error' && l.message.includes('no valid person'))).toHaveLength(10);
        expect((await fetch(`${h.origin}/host/ping`)).status).toBe(200);
      });
    });

    describe('trustedOrigins', () => {
      it('accepts cookie writes from a trusted origin, still refusing other sites', async () => {
        const h = harness();
        const write = (origin: string) =>
          h.request('POST', `/apps/${h.appId}/flags`, { key: null, headers: { 'x-auth-mode': 'ok', origin }, body: { key: `k${origin.length}`, name: 'k' } });
        expect((await write('https://admin.example.com')).status).toBe(200);
        await expectNothingStored(h, async () => {
          expectError(await write('https://evil.example.com'), 403, 'unauthorized');
        });
      });
    });
  },
  {
    options: { logger },
    // Garbage on purpose: typed as the host's function would be after a bad refactor.
    host: { mount: { trustedOrigins: ['https://Admin.example.com/'], authenticate: (req: { headers: Record<string, string | undefined> }) => (modes[req.headers['x-auth-mode'] ?? '']?.() ?? null) as never } },
  },
);
