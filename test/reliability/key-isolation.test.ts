import { timingSafeEqual } from 'node:crypto';
import { createFlagmount, type RouteDefinition } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandler } from '../../packages/core/src/http/handler.js';
import { secretsEqual, sha256Hex } from '../../packages/core/src/security/secrets.js';
import { expressFactory, type HostServer } from '../http/support/adapters.js';
import { MANAGEMENT_KEY, SDK_KEYS } from '../http/support/harness.js';
import { errorBodyProblems } from './support/error-body.js';
import { buildWorld, type World } from './support/isolation-world.js';
import { MATRIX } from './support/key-kinds.js';
import { expectedStatus, format, runMatrix } from './support/key-matrix.js';
import { handlerSend, httpSend, type Send } from './support/request-senders.js';
import { specAccess } from './support/route-access.js';

/**
 * Key isolation (issue 10): every route × every kind of key, with the expected status of each cell generated from
 * one table (the key kinds of support/key-kinds.ts against the spec's access rules of support/route-access.ts);
 * data isolation between environments and apps; the secret key refused in a query string; constant-time key
 * comparison; management keys stored hashed.
 */

// Counts every timingSafeEqual call made by the sources (they import node:crypto through the module graph).
const crypto = vi.hoisted(() => ({ calls: [] as Array<[number, number]> }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    crypto.calls.push([a.byteLength, b.byteLength]);
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, default: { ...actual, timingSafeEqual }, timingSafeEqual };
});

let instance: Awaited<ReturnType<typeof createFlagmount>>;
let host: HostServer;
let world: World;
let send: Send;

beforeAll(async () => {
  instance = await createFlagmount({
    storage: memoryStorage(),
    bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS },
    dashboard: true,
    waitForVersionTimeoutMs: 50,
  });
  host = await expressFactory.listen(instance, '/flags');
  send = httpSend(`${host.origin}/flags`);
  world = await buildWorld(send, instance);
});

afterAll(async () => {
  await host?.close();
  await instance?.close();
});

describe('key isolation matrix: every route × every kind of key', () => {
  it('every cell answers the status of the table, with the spec error body, and nothing is stored', async () => {
    const before = JSON.stringify(await instance.services.storage.dump());
    const { cells, mismatches } = await runMatrix(send, instance.routes, world);
    expect(format(mismatches)).toBe('');
    expect(cells).toBe(instance.routes.length * MATRIX.length);
    process.stdout.write(`[isolation] ${instance.routes.length} routes × ${MATRIX.length} key kinds = ${cells} cells\n`);
    // Every authorised write cell was an invalid body and every delete a missing id: the store is untouched.
    expect(JSON.stringify(await instance.services.storage.dump())).toBe(before);
  });

  it('the table covers every route kind and refuses the secret key in a query string everywhere', () => {
    for (const route of instance.routes) {
      const kind = specAccess(route).kind;
      expect(kind === 'sdk' ? 'runtime' : 'management', `${route.method} ${route.path}`).toBe(route.surface);
    }
    const runtime = instance.routes.filter((r) => specAccess(r).kind === 'sdk');
    const secretInQuery = MATRIX.find((c) => c.name === 'secret (?publishableKey=)')!;
    expect(runtime.length).toBeGreaterThan(10);
    for (const route of runtime) expect(expectedStatus(route, secretInQuery)).toBe(403);
    expect(instance.routes.filter((r) => specAccess(r).kind === 'management').length).toBeGreaterThan(30);
  });

  it("a key serves its own environment's data only (environments and apps never mix)", async () => {
    const envs = [
      { name: 'A/dev', env: world.envA.dev, own: 'flag-a', on: true },
      { name: 'A/prod', env: world.envA.prod, own: 'flag-a', on: false },
      { name: 'B/dev', env: world.envB.dev, own: 'flag-b', on: true },
      { name: 'B/prod', env: world.envB.prod, own: 'flag-b', on: false },
    ];
    for (const { name, env, own, on } of envs) {
      const version = (await instance.services.storage.environments.get(env.id))!.flagStateVersion;
      for (const key of [env.secretKey, env.publishableKey]) {
        const evaluated = await send('GET', '/features/evaluated', { authorization: `Bearer ${key}`, query: [['contextJson', '{"user":{"id":"u1"}}']] });
        const body = JSON.parse(evaluated.text!);
        expect(Object.keys(body.features), name).toEqual([own]);
        expect(body.features[own].isEnabled, name).toBe(on);
        expect(body.flagStateVersion, name).toBe(version);
        const viaQuery = await send('GET', '/features/enabled', { query: [['publishableKey', env.publishableKey]] });
        expect(Object.keys(JSON.parse(viaQuery.text!).features), name).toEqual(on ? [own] : []);
      }
      const features = JSON.parse((await send('GET', '/features', { authorization: `Bearer ${env.secretKey}` })).text!);
      expect(features.features.map((f: { key: string }) => f.key), name).toEqual([own]);
      expect(features.flagStateVersion, name).toBe(version);
      const ofrep = await send('POST', '/ofrep/v1/evaluate/flags', { authorization: `Bearer ${env.secretKey}`, body: '{"context":{"targetingKey":"u1"}}' });
      expect(JSON.parse(ofrep.text!).flags.map((f: { key: string }) => f.key), name).toEqual([own]);
      const other = own === 'flag-a' ? 'flag-b' : 'flag-a';
      const single = await send('POST', `/ofrep/v1/evaluate/flags/${other}`, { authorization: `Bearer ${env.secretKey}`, body: '{"context":{"targetingKey":"u1"}}' });
      expect(single.status, name).toBe(404);
    }
  });

  it("a key writes into its own environment only", async () => {
    const all = [world.envA.dev, world.envA.prod, world.envB.dev, world.envB.prod];
    for (const [i, env] of all.entries()) {
      const res = await send('POST', '/user', { authorization: `Bearer ${env.publishableKey}`, body: JSON.stringify({ userId: `iso-${i}`, attributes: { i } }) });
      expect(res.status).toBe(200);
    }
    for (const [i, env] of all.entries()) {
      for (const [j, other] of all.entries()) {
        const row = await instance.services.storage.entities.get(other.id, 'user', `iso-${i}`);
        expect(row !== undefined, `user iso-${i} (written with ${env.id}'s key) in ${other.id}`).toBe(i === j);
      }
    }
  });

  it("another organisation's admin key cannot write into app A, even with valid bodies (401, nothing stored)", async () => {
    const key = `Bearer ${world.otherOrgKey}`;
    const { appA, envA } = world;
    const writes: Array<[string, string, unknown]> = [
      ['POST', `/apps/${appA}/flags`, { key: 'intruder', name: 'Intruder' }],
      ['PATCH', `/apps/${appA}/flags/${world.ids['flagId']}`, { name: 'Renamed' }],
      ['PUT', `/apps/${appA}/flags/flag-a/targeting/${envA.dev.id}`, { rules: [] }],
      ['PATCH', `/apps/${appA}/envs/${envA.dev.id}/users/u1/flags`, { updates: [{ flagKey: 'flag-a', specificTargetValue: true }] }],
      ['PUT', `/apps/${appA}/envs/${envA.dev.id}/users/intruder`, { name: 'Intruder', attributes: {} }],
      ['PATCH', `/apps/${appA}`, { name: 'Taken' }],
      ['POST', `/apps/${appA}/environments`, { name: 'Staging' }],
      ['POST', `/apps/${appA}/environments/${envA.dev.id}/rotate-keys`, { which: 'both' }],
      ['POST', `/apps/${appA}/stages`, { name: 'Evil', color: 'red' }],
    ];
    const before = JSON.stringify(await instance.services.storage.dump());
    for (const [method, path, body] of writes) {
      const res = await send(method, path, { authorization: key, body: JSON.stringify(body) });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(401);
      expect(errorBodyProblems(res.status, res.contentType, res.text)).toEqual([]);
    }
    expect(JSON.stringify(await instance.services.storage.dump())).toBe(before);
  });

  it('management paths mixing app A with app B resources are 404, never a read of B', async () => {
    const admin = `Bearer ${MANAGEMENT_KEY}`;
    const { appA, envB } = world;
    const probes: Array<[string, string]> = [
      ['GET', `/apps/${appA}/environments/${envB.dev.id}`],
      ['GET', `/apps/${appA}/envs/${envB.dev.id}/users/u1/flags`],
      ['GET', `/apps/${appA}/envs/${envB.dev.id}/companies/c1/flags`],
      ['GET', `/apps/${appA}/flags/flag-b/targeting/${envB.dev.id}`],
      ['GET', `/apps/${appA}/flags/flag-a/targeting/${envB.dev.id}`],
      ['GET', `/apps/${appA}/flags/flag-b/checks`],
    ];
    for (const [method, path] of probes) {
      const res = await send(method, path, { authorization: admin });
      expect(res.status, path).toBe(404);
      expect(errorBodyProblems(res.status, res.contentType, res.text), path).toEqual([]);
    }
    const listed = JSON.parse((await send('GET', '/apps', { authorization: `Bearer ${world.otherOrgKey}` })).text!);
    expect(listed.data.map((a: { id: string }) => a.id)).not.toContain(appA);
  });
});

describe('keys at rest and in comparison', () => {
  it('management keys are stored hashed: the dump holds no plaintext key, and holds each hash', async () => {
    expect(await plaintextKeyProblems(instance.services.storage.dump(), world.secrets)).toEqual([]);
  });

  it('the comparison helper is timingSafeEqual-based: equal-length and different-length inputs', () => {
    expect(comparisonProblems(secretsEqual)).toEqual([]);
  });

  it('a management request is authenticated through the constant-time comparison', async () => {
    const before = crypto.calls.length;
    const res = await send('GET', '/apps', { authorization: `Bearer ${world.scopeKeys.read}` });
    expect(res.status).toBe(200);
    expect(crypto.calls.length).toBeGreaterThan(before);
    expect(crypto.calls.slice(before).every(([a, b]) => a === b)).toBe(true);
  });
});

/** What a plaintext-storing build would show: a key in the dump, or a key whose hash is absent. */
async function plaintextKeyProblems(dump: Promise<Record<string, unknown[]>>, secrets: string[]): Promise<string[]> {
  const text = JSON.stringify(await dump);
  const problems: string[] = [];
  for (const secret of secrets) {
    if (text.includes(secret)) problems.push(`plaintext key ${secret.slice(0, 8)}… in the dump`);
    if (!text.includes(sha256Hex(secret))) problems.push(`no hash of key ${secret.slice(0, 8)}… in the dump`);
  }
  return problems;
}

/**
 * Inspects a comparison helper's behaviour (no timing measurement): right answers for equal, different,
 * different-length and empty inputs; every call goes through `timingSafeEqual`, on buffers of one length whatever
 * the input lengths (so length is not leaked either).
 */
function comparisonProblems(equal: (a: string, b: string) => boolean): string[] {
  const problems: string[] = [];
  const cases: Array<[string, string, boolean]> = [
    ['sec_fm_abcdefghijklmnopqrstuvwxyz012', 'sec_fm_abcdefghijklmnopqrstuvwxyz012', true],
    ['sec_fm_abcdefghijklmnopqrstuvwxyz012', 'sec_fm_abcdefghijklmnopqrstuvwxyz013', false],
    ['short', 'a much longer secret than the other one', false],
    ['a', 'a'.repeat(1000), false],
    ['', '', true],
    ['', 'x', false],
    ['ü', 'u\u0308', false],
  ];
  for (const [a, b, want] of cases) {
    const before = crypto.calls.length;
    let got: boolean | undefined;
    try {
      got = equal(a, b);
    } catch (error) {
      problems.push(`threw for lengths ${a.length}/${b.length}: ${String(error)}`);
      continue;
    }
    if (got !== want) problems.push(`${JSON.stringify(a)} vs ${JSON.stringify(b)}: ${got}, expected ${want}`);
    const calls = crypto.calls.slice(before);
    if (calls.length !== 1) problems.push(`${calls.length} timingSafeEqual calls for lengths ${a.length}/${b.length}`);
    else if (calls[0]![0] !== calls[0]![1] || calls[0]![0] !== 32) problems.push(`compared buffers of ${calls[0]!.join('/')} bytes`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------

describe('key isolation self-check: deliberately broken builds are caught', () => {
  it('an auth table with wrong cells (publishable key reads /features, read scope updates flags) is caught', async () => {
    const broken = instance.routes.map((route): RouteDefinition => {
      if (route.method === 'GET' && route.path === '/features') return { ...route, auth: { kind: 'sdk', keys: 'any' } };
      if (route.method === 'PATCH' && route.path === '/apps/{appId}/flags/{flagId}') return { ...route, auth: { kind: 'management', scope: 'read' } };
      return route;
    });
    const handler = createHandler(instance.services, broken);
    const { mismatches } = await runMatrix(handlerSend(handler), broken, world);
    const cells = mismatches.map((m) => m.cell);
    expect(cells).toContain('GET /features × publishable (header)');
    expect(cells).toContain('GET /features × publishable (?publishableKey=)');
    expect(cells).toContain('PATCH /apps/{appId}/flags/{flagId} × management key [read]');
    // And nothing else: the same matrix over the real table (in-process) is clean.
    const clean = await runMatrix(handlerSend(instance.handler), instance.routes, world);
    expect(format(clean.mismatches)).toBe('');
  });

  it('a build that stores management keys in plaintext is caught', async () => {
    const storage = memoryStorage();
    const plain = 'fmk_plaintext_0123456789abcdefghijklmnopqrstu';
    await storage.migrate();
    await storage.organizations.insert({ id: 'orplain0000001', name: 'x', createdAt: new Date().toISOString() });
    await storage.managementKeys.insert({
      id: 'mkplain0000001',
      orgId: 'orplain0000001',
      name: 'plain',
      scopes: ['admin'],
      hash: plain,
      prefix: plain.slice(0, 8),
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(await plaintextKeyProblems(storage.dump(), [plain])).toEqual(expect.arrayContaining([expect.stringMatching(/plaintext key/)]));
    await storage.close();
  });

  it('a naive comparison (===, or timingSafeEqual on raw strings) is caught', () => {
    expect(comparisonProblems((a, b) => a === b).join('\n')).toMatch(/0 timingSafeEqual calls/);
    const raw = (a: string, b: string) => {
      const x = Buffer.from(a);
      const y = Buffer.from(b);
      return x.length === y.length && timingSafeEqual(x, y);
    };
    expect(comparisonProblems(raw).length).toBeGreaterThan(0);
  });
});
