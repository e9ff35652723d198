import { buildOpenApiDocument, ErrorBodySchema, type RouteDefinition } from '@flagmount/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';

type Json = Record<string, any>;

/** The schema as JSON, the way the document carries it (symbols dropped, `$id` moved to the component name). */
const plain = (schema: unknown): Json => {
  const { $id: _id, ...rest } = JSON.parse(JSON.stringify(schema)) as Json;
  return rest;
};

/** Deep copy without any `$id` (the document names components instead). */
const withoutIds = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema), (key, value) => (key === '$id' ? undefined : value));

/** Inlines component references (for comparing non-recursive schemas with their TypeBox source). */
function inline(node: unknown, components: Json): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, components));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json)['$ref'];
  if (typeof ref === 'string') return inline(components[ref.replace('#/components/schemas/', '')], components);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, components)]));
}

async function validateDocument(doc: Json) {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  // resolveRefs throws on a $ref that points nowhere.
  const resolved = result.valid ? validator.resolveRefs() : undefined;
  return { result, resolved };
}

describe('GET /openapi.json', () => {
  let h: Harness;
  let doc: Json;

  beforeAll(async () => {
    h = await startHarness(expressFactory, { options: { dashboard: true } });
    const res = await h.request('GET', '/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = res.body;
  });
  afterAll(() => h?.close());

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const { result, resolved } = await validateDocument(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(resolved).toBeDefined();
    expect(doc['openapi']).toBe('3.1.0');
    expect(doc['info'].version).toBe('3.1.0');
  });

  it('describes every route of the route table, by method and path, with its operationId', () => {
    const routes = h.instance.routes;
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes.filter((r) => !doc['paths'][r.path]?.[r.method.toLowerCase()]);
    expect(missing.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    for (const r of routes) expect(doc['paths'][r.path][r.method.toLowerCase()].operationId).toBe(r.operationId);
    const documented = Object.values(doc['paths'] as Json).reduce((n: number, item) => n + Object.keys(item as Json).length, 0);
    expect(documented).toBe(routes.length);
  });

  it('has unique operation ids', () => {
    const ids = h.instance.routes.map((r) => r.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('covers the management, runtime, extension, OFREP and dashboard routes', () => {
    const paths = doc['paths'] as Json;
    for (const [path, method] of [
      ['/apps', 'get'],
      ['/apps/{appId}/flags', 'post'],
      ['/apps/{appId}/flags/{flagId}', 'patch'],
      ['/apps/{appId}/envs/{envId}/users/{userId}/flags', 'patch'],
      ['/apps/{appId}/flags/{flagKey}/targeting/{envId}', 'put'],
      ['/apps/{appId}/flags/{flagKey}/checks', 'get'],
      ['/apps/{appId}/flags/{flagKey}/feedback', 'get'],
      ['/apps/{appId}/flag-statuses', 'get'],
      ['/features', 'get'],
      ['/features/evaluated', 'get'],
      ['/bulk', 'post'],
      ['/ofrep/v1/evaluate/flags/{key}', 'post'],
      ['/ofrep/v1/evaluate/flags', 'post'],
      ['/ui', 'get'],
      ['/openapi.json', 'get'],
    ]) {
      expect(paths[path!]?.[method!], `${method} ${path}`).toBeDefined();
    }
  });

  it('documents request bodies, parameters and 200 bodies with the very schemas the routes validate with', () => {
    const byId = new Map(h.instance.routes.map((r) => [r.operationId, r]));
    const op = (path: string, method: string) => doc['paths'][path][method];
    const createFlag = byId.get('createFlag')!;
    expect(op('/apps/{appId}/flags', 'post').requestBody.content['application/json'].schema).toEqual(plain(createFlag.body));
    const listFlags = op('/apps/{appId}/flags', 'get');
    const params = Object.fromEntries(listFlags.parameters.map((p: Json) => [`${p.in}:${p.name}`, p]));
    expect(params['path:appId'].required).toBe(true);
    expect(params['query:search'].schema).toEqual(plain((byId.get('listFlags')!.query as Json)['properties'].search));
    expect(params['query:search'].required).toBe(false);
    const components = doc['components'].schemas;
    expect(inline(listFlags.responses['200'].content['application/json'].schema, components)).toEqual(
      withoutIds(byId.get('listFlags')!.response),
    );
    // Named schemas become components, emitted once and referenced everywhere.
    expect(doc['components'].schemas.ErrorBody).toEqual(plain(ErrorBodySchema));
    expect(doc['components'].schemas.Filter).toBeDefined();
    expect(JSON.stringify(doc)).not.toMatch(/"\$ref":"(?!#)/);
  });

  it('documents exposures per day on the flag activity route (issue 37), for the dashboard and any other client', () => {
    const checks = doc['paths']['/apps/{appId}/flags/{flagKey}/checks']['get'].responses['200'].content['application/json'].schema;
    const day = (inline(checks, doc['components'].schemas) as Json).properties.data.items.properties.days.items;
    expect(Object.keys(day.properties)).toEqual(['day', 'checkCount', 'exposureCount', 'trackCount']);
    expect(day.required).toEqual(expect.arrayContaining(['checkCount', 'exposureCount', 'trackCount']));
  });

  it('documents errors and security per surface', () => {
    const errorRef = { $ref: '#/components/schemas/ErrorBody' };
    const management = doc['paths']['/apps/{appId}/flags']['post'];
    for (const status of ['400', '401', '403', '404']) {
      expect(management.responses[status].content['application/json'].schema).toEqual(errorRef);
    }
    // A management route takes a key with the scope, or a person signed in by the host whose role holds it.
    expect(management.security).toEqual([{ managementKey: ['write:flags'] }, { hostSession: [] }]);

    const evaluated = doc['paths']['/features/evaluated']['get'];
    expect(Object.keys(evaluated.responses).sort()).toEqual(['200', '400', '403']);
    expect(evaluated.responses['403'].content['application/json'].schema).toEqual(errorRef);
    expect(evaluated.security).toEqual([{ sdkKey: [] }, { publishableKey: [] }]);
    expect(doc['paths']['/features']['get'].security).toEqual([{ sdkKey: ['secret'] }]);

    const schemes = doc['components'].securitySchemes;
    expect(schemes.managementKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.sdkKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.publishableKey).toMatchObject({ type: 'apiKey', in: 'query', name: 'publishableKey' });
    expect(doc['paths']['/openapi.json']['get'].security).toEqual([]);
  });

  it('documents OFREP answers in the OFREP shapes (not the Flagmount error body)', () => {
    const single = doc['paths']['/ofrep/v1/evaluate/flags/{key}']['post'];
    expect(single.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OfrepEvaluationFailure' });
    expect(single.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OfrepEvaluationRequest' });
    // OFREP makes the body optional; Flagmount's own bodies are required.
    expect(single.requestBody.required).toBe(false);
    expect(doc['paths']['/apps/{appId}/flags']['post'].requestBody.required).toBe(true);
    const bulk = doc['paths']['/ofrep/v1/evaluate/flags']['post'];
    expect(bulk.responses['304']).toBeDefined();
    expect(bulk.responses['200'].headers.ETag).toBeDefined();
    expect(bulk.parameters).toEqual([expect.objectContaining({ name: 'If-None-Match', in: 'header' })]);
  });

  it('is generated once and served from cache', async () => {
    const again = await h.request('GET', '/openapi.json', { key: null });
    expect(again.text).toBe(JSON.stringify(doc));
    expect(again.headers.get('cache-control')).toMatch(/max-age/);
  });
});

describe('buildOpenApiDocument', () => {
  it('describes a narrower mount (runtime only, no dashboard) validly', async () => {
    const h = await startHarness(expressFactory, { options: { mount: { management: false, runtime: true } } });
    try {
      const res = await h.request('GET', '/openapi.json', { key: null });
      expect(res.status).toBe(200);
      expect(res.body.paths['/apps']).toBeUndefined();
      expect(res.body.paths['/features/evaluated']).toBeDefined();
      expect((await validateDocument(res.body)).result.valid).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('turns $id schemas into components, recursive references included, and drops non-JSON types', async () => {
    const { Type } = await import('@sinclair/typebox');
    const Node = Type.Recursive((Self) => Type.Object({ children: Type.Array(Self) }), { $id: 'Node' });
    const route = {
      method: 'POST',
      path: '/things/{id}',
      operationId: 'postThing',
      summary: 'A thing',
      surface: 'management',
      tags: ['Test'],
      auth: { kind: 'management', scope: 'read' },
      body: Type.Object({ tree: Node, at: Type.Date() }),
      response: Node,
      handle: async () => ({}),
    } as unknown as RouteDefinition;
    const doc = buildOpenApiDocument([route]) as Json;
    expect(doc['components'].schemas.Node).toEqual({
      type: 'object',
      required: ['children'],
      properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
    });
    const body = doc['paths']['/things/{id}'].post.requestBody.content['application/json'].schema;
    expect(body.properties.at).toEqual({});
    expect(doc['paths']['/things/{id}'].post.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect((await validateDocument(doc)).result.valid).toBe(true);
  });
});
