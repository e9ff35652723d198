import { Type } from '@sinclair/typebox';
import { defineRoute, raw, type RouteDefinition } from '../http/route.js';
import { buildOpenApiDocument } from './build-document.js';

/** The document is the same for every request of an instance: built on the first request, then served as is. */
const cache = new WeakMap<readonly RouteDefinition[], string>();

function documentText(routes: readonly RouteDefinition[]): string {
  let text = cache.get(routes);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApiDocument(routes));
    cache.set(routes, text);
  }
  return text;
}

/**
 * `GET /openapi.json`, public. `routes` is read at the first request rather than at creation, so the route can
 * describe a table that includes itself.
 */
export function openApiRoute(routes: () => readonly RouteDefinition[]): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document, generated from the route table',
    surface: 'management',
    tags: ['Meta'],
    auth: { kind: 'public' },
    response: Type.Object({ openapi: Type.Literal('3.1.0') }, { additionalProperties: true }),
    async handle() {
      return raw({
        status: 200,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          // Stable for the life of the process; a short max-age keeps a redeploy visible soon enough.
          'cache-control': 'public, max-age=300',
          'access-control-allow-origin': '*',
        },
        body: documentText(routes()),
      });
    },
  });
}
