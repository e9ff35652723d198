import { describe, expect, it } from 'vitest';
import { ListAuditResponseSchema } from '../../../packages/core/src/schemas/audit.js';
import { MeResponseSchema } from '../../../packages/core/src/schemas/me.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { ALICE, asPerson, cookieAuthenticate, DEV_EDITOR, sessionCookie, VERA } from '../support/sign-in.js';
import { expectError, expectNothingStored, expectSchema } from './support/management.js';

const flagBody = (key: string) => ({ key, name: `Flag ${key}` });
const targetingBody = { rules: [{ filter: { type: 'constant', value: true } }] };
const targetingPath = (h: Harness, envId: string, key = 'beta') => `/apps/${h.appId}/flags/${key}/targeting/${envId}`;

forEachAdapter(
  (harness) => {
    describe('a person signed in by the host', () => {
      it('uses the management API without a key, becomes a member, and is named in the audit', async () => {
        const h = harness();
        expect((await h.request('GET', '/apps', asPerson(ALICE))).status).toBe(200);
        const created = await h.request('POST', `/apps/${h.appId}/flags`, { ...asPerson(ALICE), body: flagBody('beta') });
        expect(created.status).toBe(200);
        const member = await h.request('GET', '/members/alice');
        expect(member.body).toEqual({ id: 'alice', name: 'Alice Admin', email: 'alice@example.com' });
        // Name kept current: the host renamed her.
        await h.request('GET', '/apps', asPerson({ ...ALICE, name: 'Alice A.' }));
        expect((await h.request('GET', '/members/alice')).body.name).toBe('Alice A.');
        // A key's write beside it, named by the key's name.
        await h.request('POST', `/apps/${h.appId}/flags`, { body: flagBody('by-key') });
        const audit = await h.request('GET', `/apps/${h.appId}/audit`, asPerson({ ...ALICE, name: 'Alice A.' }));
        expectSchema(ListAuditResponseSchema, audit.body);
        const byFlag = (key: string) => audit.body.data.find((e: { action: string; after: { key?: string } }) => e.action === 'flag.created' && e.after.key === key);
        expect(byFlag('beta')).toMatchObject({ actor: 'member:alice', actorName: 'Alice A.' });
        const keys = await h.request('GET', '/keys');
        const bootstrapKey = keys.body.data[0];
        expect(byFlag('by-key')).toMatchObject({ actor: bootstrapKey.id, actorName: bootstrapKey.name });
        const org = await h.request('GET', '/audit');
        expect(org.body.data.find((e: { action: string }) => e.action === 'member.created')).toMatchObject({ actor: 'member:alice', actorName: 'Alice A.', targetId: 'alice' });
      });

      it('answers GET /me for a person, a key, and 401 for neither', async () => {
        const h = harness();
        const me = await h.request('GET', '/me', asPerson(DEV_EDITOR));
        expect(me.status).toBe(200);
        expectSchema(MeResponseSchema, me.body);
        expect(me.body).toEqual({ actor: { type: 'person', id: 'dora', name: 'Dora Dev', role: 'editor', environments: { [h.envs.production.id]: 'viewer' } } });
        const key = await h.request('GET', '/me');
        expectSchema(MeResponseSchema, key.body);
        expect(key.body.actor).toMatchObject({ type: 'key', scopes: expect.arrayContaining(['admin']) });
        expectError(await h.request('GET', '/me', { key: null }), 401, 'unauthenticated');
        expectError(await h.request('GET', '/me', { key: 'fmk_wrong_key_0123456789abcdefghijklmnop', headers: asPerson(ALICE).headers }), 401, 'unauthenticated');
        const doc = (await h.request('GET', '/openapi.json', { key: null })).body;
        expect(doc.paths['/me'].get.operationId).toBe('getMe');
        expect(doc.components.schemas.AuditEntry.properties.actorName).toBeDefined();
      });

      it('refuses a cross-site write carrying the session cookie (403, nothing stored); same-origin writes pass', async () => {
        const h = harness();
        const cookie = sessionCookie(ALICE);
        await expectNothingStored(h, async () => {
          for (const headers of <Array<Record<string, string>>>[
            { cookie, 'sec-fetch-site': 'cross-site' },
            { cookie, 'sec-fetch-site': 'same-site' },
            { cookie, origin: 'https://evil.example' },
            { cookie, origin: 'null' },
          ]) {
            expectError(await h.request('POST', `/apps/${h.appId}/flags`, { key: null, headers, body: flagBody('evil') }), 403, 'unauthorized');
          }
        });
        // A cross-site GET is no write: it reads as usual.
        expect((await h.request('GET', '/apps', { key: null, headers: { cookie, 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
        const sameOrigin = await h.request('POST', `/apps/${h.appId}/flags`, { key: null, headers: { cookie, origin: h.origin }, body: flagBody('mine') });
        expect(sameOrigin.status).toBe(200);
        const fetchMeta = await h.request('POST', `/apps/${h.appId}/flags`, { ...asPerson(ALICE), body: flagBody('mine-too') });
        expect(fetchMeta.status).toBe(200);
        // A bearer key is not a cookie: scripts write from anywhere.
        expect((await h.request('POST', `/apps/${h.appId}/flags`, { headers: { origin: 'https://ci.example' }, body: flagBody('ci') })).status).toBe(200);
      });

      it('lets a viewer read and refuses every write (403, nothing stored)', async () => {
        const h = harness();
        await h.request('POST', `/apps/${h.appId}/flags`, { body: flagBody('beta') });
        expect((await h.request('GET', `/apps/${h.appId}/flags`, asPerson(VERA))).status).toBe(200);
        expect((await h.request('GET', targetingPath(h, h.envs.development.id), asPerson(VERA))).status).toBe(200);
        await h.request('GET', '/me', asPerson(VERA));
        await expectNothingStored(h, async () => {
          const dev = h.envs.development.id;
          const writes: Array<[string, string, unknown]> = [
            ['POST', `/apps/${h.appId}/flags`, flagBody('nope')],
            ['PUT', targetingPath(h, dev), targetingBody],
            ['PUT', `/apps/${h.appId}/envs/${dev}/users/u1`, { attributes: {} }],
            ['POST', `/apps/${h.appId}/environments/${dev}/rotate-keys`, { which: 'secret' }],
            ['POST', '/keys', { name: 'mine', scopes: ['admin'] }],
            ['PUT', '/members/someone', { name: 'S', email: 's@example.com' }],
          ];
          for (const [method, path, body] of writes) expectError(await h.request(method, path, { ...asPerson(VERA), body }), 403, 'unauthorized');
        });
      });

      it('applies per-environment roles on environment-addressed routes, the lowest role on app-wide writes', async () => {
        const h = harness();
        await h.request('POST', `/apps/${h.appId}/flags`, { body: flagBody('beta') });
        const dev = h.envs.development.id;
        const prod = h.envs.production.id;
        expect((await h.request('PUT', targetingPath(h, dev), { ...asPerson(DEV_EDITOR), body: targetingBody })).status).toBe(200);
        expect((await h.request('PUT', `/apps/${h.appId}/envs/${dev}/users/u1`, { ...asPerson(DEV_EDITOR), body: { attributes: {} } })).status).toBe(200);
        expect((await h.request('GET', targetingPath(h, prod), asPerson(DEV_EDITOR))).status).toBe(200);
        await expectNothingStored(h, async () => {
          expectError(await h.request('PUT', targetingPath(h, prod), { ...asPerson(DEV_EDITOR), body: targetingBody }), 403, 'unauthorized');
          expectError(await h.request('PUT', `/apps/${h.appId}/envs/${prod}/users/u1`, { ...asPerson(DEV_EDITOR), body: { attributes: {} } }), 403, 'unauthorized');
          expectError(await h.request('PATCH', `/apps/${h.appId}/envs/${prod}/users/u1/flags`, { ...asPerson(DEV_EDITOR), body: { flags: [{ flagKey: 'beta', isEnabled: true }] } }), 403, 'unauthorized');
          // Creating or changing a flag changes what every environment serves, Production included.
          expectError(await h.request('POST', `/apps/${h.appId}/flags`, { ...asPerson(DEV_EDITOR), body: flagBody('new') }), 403, 'unauthorized');
        });
        // By id as well as by name; a role may also be raised in one environment.
        const devAdmin = { id: 'dan', name: 'Dan', role: 'viewer', environments: { [dev]: 'admin' } };
        expect((await h.request('POST', `/apps/${h.appId}/environments/${dev}/rotate-keys`, { ...asPerson(devAdmin), body: { which: 'secret' } })).status).toBe(200);
        expectError(await h.request('POST', `/apps/${h.appId}/environments/${prod}/rotate-keys`, { ...asPerson(devAdmin), body: { which: 'secret' } }), 403, 'unauthorized');
      });

      it('keeps management keys working beside the sign-in, and refuses a wrong key even with a session', async () => {
        const h = harness();
        expect((await h.request('GET', '/apps')).status).toBe(200);
        expectError(await h.request('GET', '/apps', { key: 'sdk-or-junk-0123456789abcdefghijklmnop', headers: asPerson(ALICE).headers }), 401, 'unauthenticated');
        expectError(await h.request('GET', '/apps', { key: null }), 401, 'unauthenticated');
      });
    });
  },
  { host: { mount: { authenticate: cookieAuthenticate } } },
);
