import type { Services } from '../services.js';
import { ConflictError, StorageUnavailableError } from '../storage/errors.js';
import { authenticate } from './authenticate.js';
import { corsHeaders, NO_HEADERS, preflightHeaders } from './cors.js';
import { HttpError, invalidRequestAtRoot, type Issues } from './http-error.js';
import { RawResponse, type Principal, type RouteDefinition } from './route.js';
import { malformedPath, Router, type RouteMatch } from './router.js';
import type { CoreRequest, CoreResponse } from './types.js';
import { readBody } from './read-body.js';
import { validate, validateQuery } from './validate.js';

/**
 * The core's request handler. It answers synchronously when nothing has to wait (the evaluate route, usually);
 * `await` its result either way. It never throws or rejects.
 */
export type CoreHandler = (request: CoreRequest) => CoreResponse | Promise<CoreResponse>;

const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): CoreResponse {
  return { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...headers }, body: JSON.stringify(body) };
}

/** A 200-style JSON response whose body is already serialised. */
export function jsonTextResponse(status: number, body: string | Buffer): CoreResponse {
  return { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store' }, body };
}

/** A response's body as text (a body may be UTF-8 bytes): for code that needs a string, such as tests. */
export function bodyText(response: CoreResponse): string | undefined {
  const body = response.body;
  return body === undefined || typeof body === 'string' ? body : body.toString('utf8');
}

export function errorResponse(error: HttpError, headers: Record<string, string> = {}): CoreResponse {
  const body: { error: { code: string; message: string }; issues?: Issues } = {
    error: { code: error.code, message: error.message },
  };
  if (error.issues && Object.keys(error.issues).length) body.issues = error.issues;
  // RFC 9110 §15.5.2 and RFC 6750 §3: a 401 names the scheme it wants (a bearer key, the management API's).
  if (error.status === 401) return jsonResponse(401, body, { ...headers, 'www-authenticate': 'Bearer realm="flagmount"' });
  return jsonResponse(error.status, body, headers);
}

/** The methods a path answers: its routes', HEAD wherever GET is (served by the GET route), and OPTIONS. */
function allowHeader(methods: readonly string[]): string {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  return [...all].join(', ');
}

/**
 * The core HTTP handler: route table, auth, validation, error bodies. Never rejects. `identify` replaces the key
 * check for callers that are not requests from the network (the operator handler of `createOperatorHandler`).
 */
export function createHandler(
  services: Services,
  routes: readonly RouteDefinition[],
  identify: typeof authenticate = authenticate,
): CoreHandler {
  const router = new Router(routes);
  const { cors } = services.options;

  const crossOrigin = (request: CoreRequest, route: RouteDefinition | undefined) =>
    route?.surface === 'runtime' || cors.management ? corsHeaders(request, cors) : NO_HEADERS;

  return services.inFlight.wrap(function handle(request: CoreRequest): CoreResponse | Promise<CoreResponse> {
    const match = router.match(request.method, request.path);
    if (request.method === 'OPTIONS') {
      if (!match) return errorResponse(new HttpError(404, 'not_found', `No route ${request.path}`));
      const route = 'route' in match ? match.route : match.routes[0];
      const allow = 'allowed' in match ? match.allowed : [match.route.method];
      const cross = route?.surface === 'runtime' || cors.management ? preflightHeaders(request, cors) : NO_HEADERS;
      return { status: 204, headers: { allow: allowHeader(allow), ...cross } };
    }
    if (!match) {
      // A broken escape is the client's mistake in the URL, not a route that is missing (Fastify's router says 400 too).
      const error = malformedPath(request.path)
        ? invalidRequestAtRoot('The path holds a malformed percent-escape')
        : new HttpError(404, 'not_found', `No route ${request.method} ${request.path}`);
      return errorResponse(error, corsHeaders(request, cors));
    }
    if ('allowed' in match) {
      return errorResponse(new HttpError(405, 'not_allowed', `Method ${request.method} is not allowed here`), {
        allow: allowHeader(match.allowed),
        ...corsHeaders(request, cors),
      });
    }
    const { route, params } = match;
    const extra = crossOrigin(request, route);
    // Synchronous until something must wait: SDK keys resolve from memory and the evaluate route usually answers
    // from memory, and every promise in between is a turn of the microtask queue on the hottest route. (The
    // helpers take their state as arguments: a closure made per request is an allocation per request.)
    try {
      const auth = identify(services, request, route.auth, params);
      if (!(auth instanceof Promise)) return run(request, match, auth, extra);
      return auth.then((principal) => run(request, match, principal, extra)).then(undefined, (error: unknown) => fail(request, match, error, extra));
    } catch (error) {
      return fail(request, match, error, extra);
    }
  });

  function run(request: CoreRequest, match: RouteMatch, principal: Principal, extra: Readonly<Record<string, string>>) {
    const { route, params } = match;
    route.authorize?.(services, principal);
    const ctx = {
      params: route.params ? validate(route.params, params, 'path parameters') : params,
      query: route.query ? validateQuery(route.query, request.query) : {},
      body: route.body ? validate(route.body, readBody(request, services.options.maxBodyBytes), 'request body') : undefined,
      request,
      principal,
      services,
    };
    const handled = route.handle(ctx as never);
    if (!(handled instanceof Promise)) return finish(request, handled, extra);
    return handled.then((result: unknown) => finish(request, result, extra)).then(undefined, (error: unknown) => fail(request, match, error, extra));
  }

  function fail(request: CoreRequest, { route, params }: RouteMatch, error: unknown, extra: Readonly<Record<string, string>>): CoreResponse {
    const httpError = toHttpError(error, services, request);
    const own = route.errorResponse?.(httpError, request, params);
    if (!own) return errorResponse(httpError, extra);
    if (extra !== NO_HEADERS) own.headers = { ...own.headers, ...extra };
    return own;
  }
}

function finish(request: CoreRequest, result: unknown, extra: Readonly<Record<string, string>>): CoreResponse {
  const response = result instanceof RawResponse ? result.response : jsonResponse(200, result);
  if (extra !== NO_HEADERS) response.headers = { ...response.headers, ...extra };
  if (request.method === 'HEAD') delete response.body;
  return response;
}

function toHttpError(error: unknown, services: Services, request: CoreRequest): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ConflictError) return new HttpError(400, 'not_possible', error.message);
  if (error instanceof StorageUnavailableError) {
    services.logger.warn('flagmount: storage unavailable', { error, method: request.method, path: request.path });
    return new HttpError(503, 'not_available', 'Storage is unavailable, retry shortly');
  }
  services.logger.error('flagmount: unexpected error', { error, method: request.method, path: request.path });
  return new HttpError(500, 'unknown_error', 'Unexpected error');
}
