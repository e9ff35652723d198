import type { CoreRequest, RequestBody, RouteDefinition } from '@flagmount/core';
import type { TSchema } from '@sinclair/typebox';
import fc from 'fast-check';
import { ContextSchema } from '../../../packages/core/src/schemas/context.js';
import { badJsonText, HUGE_SIZES, hostileValue, LIMIT_NUMBERS, mutated, ODD_STRINGS, validValue } from './schema-arbitrary.js';

/** Real ids and keys of the instance under test: most generated requests address things that exist. */
export interface FuzzFixture {
  /** Value for each `{param}` of the route table (appId, envId, flagId, flagKey, …). */
  ids: Record<string, string>;
  keys: { management: string; secret: string; publishable: string };
}

export interface FuzzRequest {
  request: CoreRequest;
  /** `METHOD path`, for messages. */
  label: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND'];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/xml',
  '',
  'application/json, text/plain',
];

function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value; // a lone surrogate: sent raw
  }
}

const oddParam: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_STRINGS, '.', '..', 'a/b', '%2F', 'x'.repeat(129), 'x'.repeat(5000)),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.constantFrom(...LIMIT_NUMBERS).map(String),
);

/** A string form of a query value of this schema: valid values most of the time, hostile ones otherwise. */
function queryValue(schema: TSchema | undefined): fc.Arbitrary<string> {
  const valid = schema ? validValue(schema).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))) : fc.string();
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_STRINGS) },
    { weight: 1, arbitrary: fc.constantFrom(...LIMIT_NUMBERS, Number.NaN, Infinity).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('', 'true', 'false', '1.5', '-1', '1abc', '0x10', ' 1', '１') },
  );
}

/** A context as contextJson / context carries it: valid, mutated, broken, or over the 16 KiB limit. */
const contextText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: validValue(ContextSchema).map((v) => JSON.stringify(v)) },
  { weight: 3, arbitrary: mutated(validValue(ContextSchema)).map((v) => JSON.stringify(v) ?? 'undefined') },
  { weight: 1, arbitrary: badJsonText(validValue(ContextSchema)) },
  { weight: 1, arbitrary: fc.constantFrom(16_383, 16_384, 16_385, 40_000).map((n) => JSON.stringify({ other: { pad: 'x'.repeat(Math.max(0, n - 20)) } })) },
);

function queryArb(route: RouteDefinition, fixture: FuzzFixture): fc.Arbitrary<Array<[string, string]>> {
  const properties = ((route.query as Record<string, unknown> | undefined)?.['properties'] ?? {}) as Record<string, TSchema>;
  const known = Object.keys(properties);
  const pair = (name: string): fc.Arbitrary<[string, string]> =>
    (name === 'contextJson' || name === 'context' ? contextText : queryValue(properties[name])).map((v) => [name, v] as [string, string]);
  const names = fc.oneof(
    { weight: 4, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant('x') },
    { weight: 1, arbitrary: fc.constantFrom('context', 'context.user.id', 'context.user.roles.0', 'context.company.id', 'context..x', 'context.user', '__proto__', 'constructor.prototype.x', 'publishableKey', '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const publishable = route.surface === 'runtime'
    ? fc.option(
        fc.constantFrom(fixture.keys.publishable, fixture.keys.secret, 'pub_fm_wrong_0000000000000000000000').map((k) => ['publishableKey', k] as [string, string]),
        { freq: 6 },
      )
    : fc.constant(null);
  return fc
    .tuple(
      fc.array(names.chain((name) => fc.array(pair(name), { minLength: 1, maxLength: 3 })), { maxLength: 4 }),
      publishable,
    )
    .map(([groups, pk]) => [...groups.flat(), ...(pk ? [pk] : [])]);
}

function bodyArb(route: RouteDefinition): fc.Arbitrary<RequestBody> {
  const schema = route.body;
  const valid = schema ? validValue(schema) : fc.jsonValue({ maxDepth: 2 });
  const contentType = fc.oneof(
    { weight: 10, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const raw = (text: fc.Arbitrary<string>): fc.Arbitrary<RequestBody> =>
    fc.tuple(text, contentType).map(([t, ct]) => ({ kind: 'raw', text: t, ...(ct !== undefined ? { contentType: ct } : {}) }));
  const parsed = (value: fc.Arbitrary<unknown>): fc.Arbitrary<RequestBody> =>
    value.map((v) => ({ kind: 'parsed', value: v, contentType: 'application/json' }));
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => JSON.stringify(v) ?? '');
  if (!schema) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant<RequestBody>({ kind: 'none' }) },
      { weight: 1, arbitrary: raw(json(hostileValue)) },
      { weight: 1, arbitrary: raw(badJsonText(valid)) },
    );
  }
  return fc.oneof(
    { weight: 5, arbitrary: raw(json(mutated(valid))) },
    { weight: 3, arbitrary: raw(json(valid)) },
    { weight: 1, arbitrary: parsed(mutated(valid)) },
    { weight: 1, arbitrary: parsed(valid) },
    { weight: 2, arbitrary: raw(badJsonText(valid)) },
    { weight: 1, arbitrary: raw(json(hostileValue)) },
    { weight: 1, arbitrary: fc.constant<RequestBody>({ kind: 'none' }) },
    { weight: 1, arbitrary: raw(fc.constantFrom(...HUGE_SIZES).map((n) => JSON.stringify({ pad: 'x'.repeat(n) }))) },
  );
}

function authArb(route: RouteDefinition, fixture: FuzzFixture): fc.Arbitrary<string | undefined> {
  const right =
    route.auth.kind === 'management' ? fixture.keys.management : route.auth.kind === 'sdk' ? fixture.keys.secret : undefined;
  const wrong = fc.constantFrom<string | undefined>(
    undefined,
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    `Bearer ${fixture.keys.publishable}`,
    `Bearer ${fixture.keys.management}`,
    `Bearer ${fixture.keys.secret}`,
    `bearer   ${right ?? 'x'}  `,
    `Bearer ${right ?? 'x'} extra`,
    `Bearer ${'k'.repeat(9000)}`,
    'Bearer fmk_wrong_key',
    'Bearer sec_fm_wrong_00000000000000000000000',
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(right === undefined ? undefined : `Bearer ${right}`) },
    { weight: 1, arbitrary: wrong },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `Bearer ${s}`) },
  );
}

/** Generated requests for one route of the table: mostly aimed at it, with everything a client can get wrong. */
export function requestArb(route: RouteDefinition, fixture: FuzzFixture): fc.Arbitrary<FuzzRequest> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const params = fc.tuple(
    ...names.map((name) =>
      fc.oneof({ weight: 5, arbitrary: fc.constant(fixture.ids[name] ?? name) }, { weight: 2, arbitrary: oddParam }).map((value) => [name, value] as const),
    ),
  );
  const encodeRaw = fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  const method = fc.oneof({ weight: 12, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
  const extraHeaders = fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          origin: fc.constantFrom('https://example.com', 'null', 'http://evil.test'),
          'if-none-match': fc.constantFrom('*', '"x"', 'W/"y"'),
          'access-control-request-headers': fc.constantFrom('authorization, x-a', 'bad header,\u00e9', ''),
          'content-length': fc.constantFrom('0', '-1', '99999999999', 'abc'),
        },
        { requiredKeys: [] },
      ),
    },
  );
  return fc
    .tuple(method, params, encodeRaw, queryArb(route, fixture), authArb(route, fixture), bodyArb(route), extraHeaders)
    .map(([m, ps, encode, query, authorization, body, extra]) => {
      const values = Object.fromEntries(ps);
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = values[name] ?? name;
        return encode ? encodeSegment(value) : value;
      });
      const headers: Record<string, string | undefined> = { ...extra };
      if (authorization !== undefined) headers['authorization'] = authorization;
      if ((body.kind === 'raw' || body.kind === 'parsed') && body.contentType !== undefined) headers['content-type'] = body.contentType;
      const request: CoreRequest = { method: m, path, query, headers, body };
      return { request, label: `${m} ${path}` };
    });
}

/** A short description of a request for failure messages (bodies can be 70 KB). */
export function describeRequest(request: CoreRequest): string {
  const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  const body =
    request.body.kind === 'none'
      ? 'none'
      : request.body.kind === 'raw'
        ? `raw ${JSON.stringify(request.body.contentType)} ${cut(JSON.stringify(request.body.text))}`
        : request.body.kind === 'parsed'
          ? `parsed ${cut(JSON.stringify(request.body.value) ?? 'undefined')}`
          : `unreadable ${String(request.body.error)}`;
  const query = cut(JSON.stringify(request.query));
  const headers = cut(JSON.stringify(request.headers), 200);
  return `${request.method} ${cut(request.path, 200)}\n  query ${query}\n  headers ${headers}\n  body ${body}`;
}
