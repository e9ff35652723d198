import { timingSafeEqual } from 'node:crypto';
import { createFlagmount, type CoreHandler, type ManagementScope, type RouteDefinition } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandler } from '../../packages/core/src/http/handler.js';
import { secretsEqual, sha256Hex } from '../../packages/core/src/security/secrets.js';
import { expressFactory, type HostServer } from '../http/support/adapters.js';
import { MANAGEMENT_KEY, SDK_KEYS } from '../http/support/harness.js';
import { otherOrganization } from '../http/management/support/management.js';
import { errorBodyProblems } from './support/error-body.js';

/**
 * Key isolation (issue 10): every route × every kind of key, with the expected status of each cell generated from
 * one table (MATRIX below); data isolation between environments and apps; the secret key refused in a query
 * string; constant-time key comparison; management keys stored hashed.
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

// ---------------------------------------------------------------------------------------------------------------
// The world: app A (bootstrap) with Development and Production, app B created through the admin API, a management
// key per scope created through the admin API, and a second organisation with its own admin key.

const SCOPES: ManagementScope[] = ['read', 'write:flags', 'write:flag:targeting', 'write:entities', 'admin'];

interface World {
  appA: string;
  appB: string;
  envA: { dev: Env; prod: Env };
  envB: { dev: Env; prod: Env };
  scopeKeys: Record<ManagementScope, string>;
  otherOrgKey: string;
  /** Ids that exist in app A (reads) and ids that do not (deletes: a real delete would change the world). */
  ids: Record<string, string>;
  missing: Record<string, string>;
  secrets: string[];
}
interface Env {
  id: string;
  publishableKey: string;
  secretKey: string;
}

interface Answer {
  status: number;
  contentType: string | null | undefined;
  text: string | undefined;
}
type Send = (method: string, path: string, options: { authorization?: string; query?: Array<[string, string]>; body?: string }) => Promise<Answer>;

function handlerSend(handler: CoreHandler): Send {
  return async (method, path, { authorization, query = [], body }) => {
    const response = await handler({
      method,
      path,
      query,
      headers: { ...(authorization ? { authorization } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? { kind: 'none' } : { kind: 'raw', text: body, contentType: 'application/json' },
    });
    if (response.stream) response.stream.open({ write: () => {}, end: () => {} })();
    return { status: response.status, contentType: response.headers['content-type'], text: response.body };
  };
}

function httpSend(baseUrl: string): Send {
  return async (method, path, { authorization, query = [], body }) => {
    const search = query.length ? `?${new URLSearchParams(query).toString()}` : '';
    const controller = new AbortController();
    const res = await fetch(baseUrl + path + search, {
      method,
      redirect: 'manual',
      signal: controller.signal,
      headers: { ...(authorization ? { authorization } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
    const contentType = res.headers.get('content-type');
    if (contentType?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: res.status, contentType, text: undefined };
    }
    return { status: res.status, contentType, text: await res.text() };
  };
}

async function buildWorld(send: Send, instance: Awaited<ReturnType<typeof createFlagmount>>): Promise<World> {
  const admin = `Bearer ${MANAGEMENT_KEY}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await send(method, path, { authorization: admin, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return JSON.parse(res.text!) as any;
  };
  const bootstrap = instance.bootstrap!;
  const appA = bootstrap.appId;
  const envOf = (name: string) => {
    const e = bootstrap.environments.find((x) => x.name === name)!;
    return { id: e.id, publishableKey: e.publishableKey, secretKey: e.secretKey };
  };
  const envA = { dev: envOf('Development'), prod: envOf('Production') };

  const scopeKeys = {} as Record<ManagementScope, string>;
  const secrets = [MANAGEMENT_KEY];
  for (const scope of SCOPES) {
    const { secret } = await call('POST', '/keys', { name: `only ${scope}`, scopes: [scope] });
    scopeKeys[scope] = secret;
    secrets.push(secret);
  }
  const { key: readKey } = await call('POST', '/keys', { name: 'listed', scopes: ['read'] }).then((r) => {
    secrets.push(r.secret);
    return r;
  });

  const appB = (await call('POST', '/apps', { name: 'App B' })).id as string;
  const envsB = (await call('GET', `/apps/${appB}/environments`)).data as Array<{ id: string; name: string }>;
  const fullEnv = async (appId: string, envId: string): Promise<Env> => {
    const env = await call('GET', `/apps/${appId}/environments/${envId}`);
    return { id: env.id, publishableKey: env.sdkAccess.publishableKey, secretKey: env.sdkAccess.secretKey };
  };
  const envB = {
    dev: await fullEnv(appB, envsB.find((e) => e.name === 'Development')!.id),
    prod: await fullEnv(appB, envsB.find((e) => e.name === 'Production')!.id),
  };

  // flag-a is on for everyone in A/Development only; flag-b in B/Development only.
  const everyone = { rules: [{ filter: { type: 'constant', value: true } }] };
  const flagA = (await call('POST', `/apps/${appA}/flags`, { key: 'flag-a', name: 'Flag A' })).flag;
  await call('PUT', `/apps/${appA}/flags/flag-a/targeting/${envA.dev.id}`, everyone);
  await call('POST', `/apps/${appB}/flags`, { key: 'flag-b', name: 'Flag B' });
  await call('PUT', `/apps/${appB}/flags/flag-b/targeting/${envB.dev.id}`, everyone);
  await call('PUT', `/apps/${appA}/envs/${envA.dev.id}/users/u1`, { name: 'U1', attributes: {} });
  await call('PUT', `/apps/${appA}/envs/${envA.dev.id}/companies/c1`, { name: 'C1', attributes: {} });
  await call('PUT', '/members/m1', { name: 'M One', email: 'm1@example.com' });
  const app = await call('GET', `/apps/${appA}`);
  const other = await otherOrganization({ storage: instance.services.storage, orgId: bootstrap.organizationId } as never);
  const asset = [...(await import('../../packages/core/src/dashboard/assets.js')).dashboardAssets().files.keys()][0]!;
  return {
    appA,
    appB,
    envA,
    envB,
    scopeKeys,
    otherOrgKey: other.key,
    secrets,
    ids: {
      appId: appA,
      envId: envA.dev.id,
      flagId: flagA.id,
      flagKey: 'flag-a',
      key: 'flag-a',
      userId: 'u1',
      companyId: 'c1',
      memberId: 'm1',
      keyId: readKey.id,
      stageId: app.stages[0].id,
      segmentId: app.segments[0].id,
      file: asset,
    },
    missing: {
      userId: 'nobody',
      companyId: 'nocompany',
      stageId: 'stmissing00000',
      segmentId: 'sgmissing00000',
      keyId: 'mkmissing00000',
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// THE TABLE. First, who may call each route, written from the specs (runtime-api.md "Endpoints", architecture.md
// "Scopes") and NOT read from the route definitions: the matrix must catch a route table that drifts. A route added
// later falls under these rules automatically (a new management GET needs `read`, a new write `admin`, …).

type Access = { kind: 'public' } | { kind: 'sdk'; keys: 'secret' | 'any' } | { kind: 'management'; scope: ManagementScope };

const PUBLIC = ['GET /ui', 'GET /ui/assets/{file}', 'GET /openapi.json'];
/** runtime-api.md: GET /features needs the secret key; the node SDK's push stream is server-side too. */
const SECRET_ONLY = ['GET /features', 'GET /sse/server'];
const RUNTIME_PATH = /^\/(features(\/.*)?|user|company|event|feedback(\/.*)?|bulk|sse\/.*|flags\/opt-in|ofrep\/.*)$/;
const WRITE_SCOPES: Array<[RegExp, ManagementScope]> = [
  [/^(POST \/apps\/\{appId\}\/flags|PATCH \/apps\/\{appId\}\/flags\/\{flagId\})$/, 'write:flags'],
  [/^(PATCH \/apps\/\{appId\}\/envs\/\{envId\}\/(users|companies)\/\{\w+\}\/flags|PUT \/apps\/\{appId\}\/flags\/\{flagKey\}\/targeting\/\{envId\})$/, 'write:flag:targeting'],
  [/^(PUT|DELETE) \/apps\/\{appId\}\/envs\/\{envId\}\/(users|companies)\/\{\w+\}$/, 'write:entities'],
];

function specAccess(route: RouteDefinition): Access {
  const id = `${route.method} ${route.path}`;
  if (PUBLIC.includes(id)) return { kind: 'public' };
  if (RUNTIME_PATH.test(route.path)) return { kind: 'sdk', keys: SECRET_ONLY.includes(id) ? 'secret' : 'any' };
  if (route.method === 'GET') return { kind: 'management', scope: 'read' };
  for (const [pattern, scope] of WRITE_SCOPES) if (pattern.test(id)) return { kind: 'management', scope };
  return { kind: 'management', scope: 'admin' };
}

// Then, per way of presenting a key (a column), the status each kind of route answers. 'ok' is the route's own
// answer once authorised (AUTHORIZED below): a read 200, a write with an invalid body 400 (validation comes after
// authentication, so an authorised cell changes nothing), a delete of a missing id 404.

type Rule = number | 'ok';
type Sdk = Extract<Access, { kind: 'sdk' }>;
type Management = Extract<Access, { kind: 'management' }>;
interface Column {
  name: string;
  /** Authorization header and/or query parameters for this key. */
  present(w: World): { authorization?: string; query?: Array<[string, string]> };
  management(access: Management, route: RouteDefinition): Rule;
  runtime(access: Sdk): Rule;
}

const anyKey = (a: Sdk): Rule => (a.keys === 'any' ? 'ok' : 403);
const withScope = (scope: ManagementScope) => (a: Management): Rule => (scope === 'admin' || a.scope === scope ? 'ok' : 403);
/** A management route addressing app A's resources (all but /apps, /members, /keys). */
const appScoped = (route: RouteDefinition) => route.path.includes('{appId}');

const MATRIX: Column[] = [
  { name: 'no key', present: () => ({}), management: () => 401, runtime: () => 403 },
  { name: 'wrong management key', present: () => ({ authorization: 'Bearer fmk_not_a_real_key_000000000000000000000' }), management: () => 401, runtime: () => 403 },
  { name: 'wrong SDK key', present: () => ({ authorization: 'Bearer sec_fm_not_a_real_key_000000000000000' }), management: () => 401, runtime: () => 403 },
  { name: 'not a bearer', present: (w) => ({ authorization: `Basic ${Buffer.from(`x:${w.envA.dev.secretKey}`).toString('base64')}` }), management: () => 401, runtime: () => 403 },
  { name: 'publishable (header)', present: (w) => ({ authorization: `Bearer ${w.envA.dev.publishableKey}` }), management: () => 401, runtime: anyKey },
  { name: 'secret (header)', present: (w) => ({ authorization: `Bearer ${w.envA.dev.secretKey}` }), management: () => 401, runtime: () => 'ok' },
  { name: 'publishable (?publishableKey=)', present: (w) => ({ query: [['publishableKey', w.envA.dev.publishableKey]] }), management: () => 401, runtime: anyKey },
  { name: 'secret (?publishableKey=)', present: (w) => ({ query: [['publishableKey', w.envA.dev.secretKey]] }), management: () => 401, runtime: () => 403 },
  ...SCOPES.map<Column>((scope) => ({
    name: `management key [${scope}]`,
    present: (w) => ({ authorization: `Bearer ${w.scopeKeys[scope]}` }),
    management: withScope(scope),
    runtime: () => 403,
  })),
  { name: 'other environment, publishable', present: (w) => ({ authorization: `Bearer ${w.envA.prod.publishableKey}` }), management: () => 401, runtime: anyKey },
  { name: 'other environment, secret', present: (w) => ({ authorization: `Bearer ${w.envA.prod.secretKey}` }), management: () => 401, runtime: () => 'ok' },
  { name: 'other app, publishable', present: (w) => ({ authorization: `Bearer ${w.envB.dev.publishableKey}` }), management: () => 401, runtime: anyKey },
  { name: 'other app, secret', present: (w) => ({ authorization: `Bearer ${w.envB.dev.secretKey}` }), management: () => 401, runtime: () => 'ok' },
  {
    name: 'other organisation, admin',
    present: (w) => ({ authorization: `Bearer ${w.otherOrgKey}` }),
    // App A is not its organisation's: reads and deletes are 401 (architecture.md); a write with an invalid body is
    // refused by validation first (nothing about A is revealed; the valid-body writes are a test of their own).
    // Our members and keys do not exist for it (404).
    management: (_, r) =>
      appScoped(r) ? (r.method === 'GET' || r.method === 'DELETE' ? 401 : 'ok') : /\{(memberId|keyId)\}/.test(r.path) && r.method !== 'PUT' ? 404 : 'ok',
    runtime: () => 403,
  },
];

/** A route's answer once the key is accepted. */
function authorized(route: RouteDefinition): number {
  if (route.method === 'GET') return 200;
  if (route.method === 'DELETE') return 404;
  return 400;
}

/** The concrete request of a row: real ids for reads and writes, missing ids for deletes, an invalid body for writes. */
function rowRequest(route: RouteDefinition, w: World): { method: string; path: string; body?: string } {
  const ids = route.method === 'DELETE' ? { ...w.ids, ...w.missing } : w.ids;
  let path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? name));
  if (path === '/ui') path = '/ui/';
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : JSON.stringify('not an object');
  return { method: route.method, path, ...(body !== undefined ? { body } : {}) };
}

function expectedStatus(route: RouteDefinition, column: Column): number {
  const access = specAccess(route);
  const rule = access.kind === 'public' ? 'ok' : access.kind === 'management' ? column.management(access, route) : column.runtime(access);
  return rule === 'ok' ? authorized(route) : rule;
}

interface Mismatch {
  cell: string;
  expected: number;
  actual: number;
  problems: string[];
}

/** Runs every cell; resolves the cells whose status or error body differs from the table. */
async function runMatrix(send: Send, routes: readonly RouteDefinition[], w: World): Promise<{ cells: number; mismatches: Mismatch[] }> {
  const mismatches: Mismatch[] = [];
  let cells = 0;
  for (const route of routes) {
    const row = rowRequest(route, w);
    for (const column of MATRIX) {
      const presented = column.present(w);
      const expected = expectedStatus(route, column);
      const answer = await send(row.method, row.path, {
        ...(presented.authorization ? { authorization: presented.authorization } : {}),
        ...(presented.query ? { query: presented.query } : {}),
        ...(row.body !== undefined ? { body: row.body } : {}),
      });
      cells++;
      const problems = answer.status >= 400 ? errorBodyProblems(answer.status, answer.contentType, answer.text) : [];
      if (answer.status !== expected || problems.length) {
        mismatches.push({ cell: `${route.method} ${route.path} × ${column.name}`, expected, actual: answer.status, problems });
      }
    }
  }
  return { cells, mismatches };
}

const format = (mismatches: Mismatch[]) =>
  mismatches.map((m) => `${m.cell}: expected ${m.expected}, got ${m.actual}${m.problems.length ? ` (${m.problems.join('; ')})` : ''}`).join('\n');

// ---------------------------------------------------------------------------------------------------------------

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
