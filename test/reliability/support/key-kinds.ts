import type { ManagementScope, RouteDefinition } from '@flagmount/core';
import { SCOPES, type World } from './isolation-world.js';
import type { Access } from './route-access.js';

/**
 * The matrix's columns: every way of presenting a key (none, a wrong one, each SDK key in a header or the query,
 * a management key per scope, keys of another environment, app or organisation), each with the status every kind
 * of route answers it. 'ok' is the route's own answer once authorised (`authorized` in key-matrix.ts): a read 200,
 * a write with an invalid body 400 (validation comes after authentication, so an authorised cell changes nothing),
 * a delete of a missing id 404.
 */

export type Rule = number | 'ok';
type Sdk = Extract<Access, { kind: 'sdk' }>;
type Management = Extract<Access, { kind: 'management' }>;
export interface Column {
  name: string;
  /** Authorization header and/or query parameters for this key. */
  present(w: World): { authorization?: string; query?: Array<[string, string]> };
  management(access: Management, route: RouteDefinition): Rule;
  runtime(access: Sdk, route: RouteDefinition): Rule;
}

/**
 * OFREP answers a request that presents no key at all (no bearer token) 401, its protocol's status; Reflag's runtime
 * routes answer every key problem 403.
 */
const noKeyRuntime = (_: Sdk, route: RouteDefinition): Rule => (route.path.startsWith('/ofrep/') ? 401 : 403);

const anyKey = (a: Sdk): Rule => (a.keys === 'any' ? 'ok' : 403);
const withScope = (scope: ManagementScope) => (a: Management): Rule => (scope === 'admin' || a.scope === 'any' || a.scope === scope ? 'ok' : 403);
/** A management route addressing app A's resources (all but /apps, /members, /keys). */
const appScoped = (route: RouteDefinition) => route.path.includes('{appId}');

export const MATRIX: Column[] = [
  { name: 'no key', present: () => ({}), management: () => 401, runtime: noKeyRuntime },
  { name: 'wrong management key', present: () => ({ authorization: 'Bearer fmk_not_a_real_key_000000000000000000000' }), management: () => 401, runtime: () => 403 },
  { name: 'wrong SDK key', present: () => ({ authorization: 'Bearer sec_fm_not_a_real_key_000000000000000' }), management: () => 401, runtime: () => 403 },
  { name: 'not a bearer', present: (w) => ({ authorization: `Basic ${Buffer.from(`x:${w.envA.dev.secretKey}`).toString('base64')}` }), management: () => 401, runtime: noKeyRuntime },
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
