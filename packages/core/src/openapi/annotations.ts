import type { TSchema } from '@sinclair/typebox';
import type { RouteDefinition } from '../http/route.js';

/** One documented response other than the defaults the generator derives from the route. */
export interface ResponseDoc {
  description: string;
  /** JSON body schema (the very schema the route uses, never a copy). */
  schema?: TSchema;
  /** Content type of `schema`; default `application/json`. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: TSchema }>;
}

/**
 * What a route needs documented beyond its `RouteDefinition`: protocols with their own error bodies (OFREP) or
 * conditional answers (304). Kept beside the route table rather than in it, so the core route type stays lean.
 */
export interface OperationDoc {
  description?: string;
  /** Replaces the documented request body (e.g. a route that validates its body in two steps). */
  requestBody?: TSchema;
  /** Extra header parameters (`If-None-Match`, …). */
  headers?: Record<string, { description: string; schema: TSchema }>;
  /** Keyed by status code; replaces the default answer for that status. */
  responses?: Record<string, ResponseDoc>;
}

const docs = new WeakMap<RouteDefinition, OperationDoc>();

/** Attaches documentation to a route and returns the route (for use inside a route array literal). */
export function documented<R extends RouteDefinition>(route: R, doc: OperationDoc): R {
  docs.set(route, doc);
  return route;
}

export function operationDocOf(route: RouteDefinition): OperationDoc | undefined {
  return docs.get(route);
}
