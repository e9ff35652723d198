import type { TSchema } from '@sinclair/typebox';
import type { RouteDefinition } from '../http/route.js';
import { ErrorBodySchema } from '../schemas/error.js';
import { operationDocOf, type ResponseDoc } from './annotations.js';
import { ComponentRegistry } from './json-schema.js';

type Json = Record<string, unknown>;

/** management-api.md, "Versioning": the interface description carries version 3.1.0. */
const API_VERSION = '3.1.0';

const SECURITY_SCHEMES = {
  managementKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A management API key. The requirement lists the scope the route needs (`admin` holds every scope). ' +
      'Missing or unknown key: 401 unauthenticated; a key without the scope: 403 unauthorized.',
  },
  hostSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description:
      "The host app's own sign-in, when the mount has an `authenticate` function (the cookie's name is the host's). " +
      'The person\'s role (admin, editor, viewer; per environment on routes with an envId) maps onto the scopes. ' +
      'Writes from another site are refused with 403.',
  },
  sdkKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      "An environment's SDK key: the publishable or the secret key. Routes whose requirement lists `secret` accept " +
      'only the secret key. Any key problem is a 403.',
  },
  publishableKey: {
    type: 'apiKey',
    in: 'query',
    name: 'publishableKey',
    description: 'The publishable key as a query parameter (browsers, no preflight). A secret key is refused here.',
  },
};

const MANAGEMENT_ERRORS: Record<string, string> = {
  '400': 'Invalid request (`invalid_request`, with `issues`) or a valid request that cannot be done (`not_possible`)',
  '401': 'Missing or unknown management API key (`unauthenticated`)',
  '403': 'The key lacks the scope this route needs (`unauthorized`)',
  '404': 'The resource, or its parent, was not found (`not_found`)',
};

const RUNTIME_ERRORS: Record<string, string> = {
  '400': 'Invalid request or context (`invalid_request`, with `issues`)',
  '403': 'SDK key missing, invalid, or not allowed for this route (`unauthorized`)',
};

/** Everything the document says about one route, derived from its definition. */
function operation(route: RouteDefinition, components: ComponentRegistry): Json {
  const doc = operationDocOf(route);
  const parameters = [
    ...pathParameters(route, components),
    ...queryParameters(route.query, components),
    ...Object.entries(doc?.headers ?? {}).map(([name, header]) => ({
      name,
      in: 'header',
      required: false,
      description: header.description,
      schema: components.convert(header.schema),
    })),
  ];
  const bodySchema = doc?.requestBody ?? route.body;
  const op: Json = {
    operationId: route.operationId,
    summary: route.summary,
    ...(doc?.description ? { description: doc.description } : {}),
    tags: route.tags,
    ...(parameters.length ? { parameters } : {}),
    ...(bodySchema
      ? { requestBody: { required: isRequiredBody(route), content: { 'application/json': { schema: components.convert(bodySchema) } } } }
      : {}),
    responses: responses(route, components, doc?.responses ?? {}),
    security: security(route),
  };
  if (route.surface === 'runtime') op['x-flagmount-surface'] = 'runtime';
  return op;
}

/** A body whose schema admits no body at all (`Type.Undefined()` in a union, or any value) is optional. */
function isRequiredBody(route: RouteDefinition): boolean {
  const admitsNothing = (schema: Json | undefined): boolean =>
    !schema ||
    Object.keys(schema).length === 0 ||
    schema['type'] === 'undefined' ||
    (Array.isArray(schema['anyOf']) && (schema['anyOf'] as Json[]).some(admitsNothing));
  return !admitsNothing(route.body as Json | undefined);
}

function pathParameters(route: RouteDefinition, components: ComponentRegistry): Json[] {
  const properties = ((route.params as Json | undefined)?.['properties'] ?? {}) as Record<string, TSchema>;
  return [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name!] ? components.convert(properties[name!]) : { type: 'string' },
  }));
}

function queryParameters(schema: TSchema | undefined, components: ComponentRegistry): Json[] {
  const object = schema as Json | undefined;
  const properties = (object?.['properties'] ?? {}) as Record<string, Json>;
  const required = new Set((object?.['required'] ?? []) as string[]);
  return Object.keys(properties).map((name) => {
    const property = properties[name]!;
    const description = typeof property['description'] === 'string' ? property['description'] : undefined;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(description ? { description } : {}),
      schema: components.convert(property),
    };
  });
}

function responses(route: RouteDefinition, components: ComponentRegistry, extra: Record<string, ResponseDoc>): Json {
  const out: Json = { '200': success(route, components) };
  const errors = route.auth.kind === 'management' ? MANAGEMENT_ERRORS : route.auth.kind === 'sdk' ? RUNTIME_ERRORS : {};
  for (const [status, description] of Object.entries(errors)) {
    out[status] = { description, content: { 'application/json': { schema: components.convert(ErrorBodySchema) } } };
  }
  for (const [status, response] of Object.entries(extra)) {
    out[status] = {
      description: response.description,
      ...(response.headers ? { headers: headerObjects(response.headers, components) } : {}),
      ...(response.schema
        ? { content: { [response.contentType ?? 'application/json']: { schema: components.convert(response.schema) } } }
        : {}),
    };
  }
  return out;
}

function success(route: RouteDefinition, components: ComponentRegistry): Json {
  if (route.produces) {
    const schema = route.response ? components.convert(route.response) : { type: 'string' };
    return { description: `OK (${route.produces})`, content: { [route.produces]: { schema } } };
  }
  const schema = route.response ? components.convert(route.response) : {};
  return { description: 'OK', content: { 'application/json': { schema } } };
}

function headerObjects(headers: NonNullable<ResponseDoc['headers']>, components: ComponentRegistry): Json {
  return Object.fromEntries(
    Object.entries(headers).map(([name, h]) => [name, { description: h.description, schema: components.convert(h.schema) }]),
  );
}

function security(route: RouteDefinition): Json[] {
  switch (route.auth.kind) {
    case 'management':
      return [{ managementKey: route.auth.scope === 'any' ? [] : [route.auth.scope] }, { hostSession: [] }];
    case 'sdk':
      return route.auth.keys === 'secret' ? [{ sdkKey: ['secret'] }] : [{ sdkKey: [] }, { publishableKey: [] }];
    default:
      return [];
  }
}

/**
 * The OpenAPI 3.1 description of a route table: the same TypeBox schemas that validate requests, so the document
 * cannot drift from the behaviour. Paths are relative to the mount (`servers: [{ url: '.' }]` resolves against
 * the document's own URL, `<prefix>/openapi.json`, wherever the host mounted Flagmount).
 */
export function buildOpenApiDocument(routes: readonly RouteDefinition[]): Json {
  const components = new ComponentRegistry();
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operation(route, components);
    for (const tag of route.tags) tags.add(tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Flagmount',
      version: API_VERSION,
      description:
        'Feature flags mounted inside a Node app: the Reflag-compatible management and runtime APIs, Flagmount ' +
        'extension routes and the OpenFeature Remote Evaluation Protocol (OFREP). Generated from the route table.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '.', description: 'The mount prefix this document was served from' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: { schemas: components.schemas, securitySchemes: SECURITY_SCHEMES },
  };
}
