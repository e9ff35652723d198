import {
  createMount,
  flagIsOn,
  flagOff,
  handleNodeRequest,
  requestBinder,
  type RequestFlags,
  type RequestFlagsOptions,
  type RequireFlagOptions,
  mergeVary,
  normalizePrefix,
  pathBelow,
  pathBelowSegments,
  releaseWhenSent,
  sendNodeResponse,
  type CoreResponse,
  type HostBody,
  type FlagKey,
  type Flagmount,
  type Mount,
  type MountOptions,
} from '@flagmount/core';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';

export interface FlagmountFastifyOptions extends MountOptions, Partial<RequestFlagsOptions<FastifyRequest>> {
  instance: Flagmount;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's flags, bound from the plugin's `context` option. */
    flags: RequestFlags;
  }
}

/** A body our catch-all parser kept as text: the core parses it, so the answer matches the other adapters. */
class RawText {
  constructor(readonly text: string) {}
}

// The methods with routes of their own; any other (PROPFIND…) reaches the not-found handler, the same handler, so a
// wrong method gets the core's 405 with its error body rather than Fastify's 404.
const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Fastify 5 plugin: `app.register(flagmountFastify, { instance, prefix: '/flags' })`.
 *
 * fastify-plugin gives it a name and a version check but skips encapsulation, which also makes Fastify ignore
 * the `prefix` option; so the routes live in an inner, encapsulated plugin registered with that prefix. Its
 * catch-all parser, error handler and body limit therefore stay inside Flagmount's routes: the host's own routes,
 * parsers and error handler are untouched. Registering it twice (management and runtime on two prefixes) works.
 */
const plugin: FastifyPluginAsync<FlagmountFastifyOptions> = async (app, options) => {
  const { instance, prefix, context, current, environment, ...mountOptions } = options;
  const mount = createMount(instance, mountOptions);
  // Not encapsulated (fastify-plugin): the decoration and its hook reach every route of the host.
  if (context) bindRequests(app, requestBinder(instance, { context, current, ...(environment !== undefined ? { environment } : {}) }));
  await app.register(async (scope) => routes(scope, mount), { prefix: normalizePrefix(prefix) });
};

export const flagmountFastify = fp(plugin, { fastify: '5.x', name: '@flagmount/fastify' });
export default flagmountFastify;

function bindRequests(app: FastifyInstance, binder: ReturnType<typeof requestBinder<FastifyRequest>>): void {
  if (!app.hasRequestDecorator('flags')) app.decorateRequest('flags', null as unknown as RequestFlags);
  // A callback hook, so that the rest of the request runs inside `binder.run` (`flags.current()`).
  app.addHook('onRequest', (request, _reply, done) => {
    let bound: RequestFlags | Promise<RequestFlags>;
    try {
      bound = binder.bind(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    const go = (flags: RequestFlags) => {
      request.flags = flags;
      binder.run(flags, () => done());
    };
    if (bound instanceof Promise) bound.then(go, (error: Error) => done(error));
    else go(bound);
  });
}

/**
 * A route guard, as a preHandler: `app.get('/beta', { preHandler: requireFlag('beta') }, handler)`. When the flag is
 * off for the request, the host's not-found handler answers (or `status` through its error handler, `redirect`, `handler`).
 */
export function requireFlag(
  flagKey: FlagKey,
  options: RequireFlagOptions<(request: FastifyRequest, reply: FastifyReply) => unknown> = {},
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async function flagmountRequireFlag(request, reply) {
    if (flagIsOn(request.flags, flagKey)) return;
    if (options.handler) return options.handler(request, reply);
    if (options.redirect !== undefined) return reply.redirect(options.redirect);
    if (options.status === undefined) {
      reply.callNotFound();
      // An async hook that answered returns the reply, so that Fastify stops the route there.
      return reply;
    }
    throw flagOff(flagKey, options.status);
  };
}

async function routes(scope: FastifyInstance, mount: Mount): Promise<void> {
  // Every body reaches the core as text, which parses JSON as it does under Express and Koa. Fastify's JSON parser
  // refuses valid JSON with a `__proto__` or `constructor.prototype` key (that the core stores as plain names) and
  // words its own errors. This scope is encapsulated: the host's routes keep their parsers.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, new RawText(String(body))));
  // With `useSemicolonDelimiter` Fastify's query can begin before the `?`, so its parse is not of the same text.
  const config = scope.initialConfig as { useSemicolonDelimiter?: boolean; routerOptions?: { useSemicolonDelimiter?: boolean } };
  const semicolons = config.useSemicolonDelimiter === true || config.routerOptions?.useSemicolonDelimiter === true;
  const query = (request: FastifyRequest): unknown => (semicolons ? undefined : request.query);
  const answer = (request: FastifyRequest, reply: FastifyReply, body: HostBody): Promise<FastifyReply> | undefined => {
    // The router matched, so the URL is below `scope.prefix` (the full one, outer prefixes included); the fallback
    // covers a match of the prefix spelled another way (a case-insensitive router, `/%66lags`, doubled slashes).
    const url = request.url;
    const below = pathBelow(scope.prefix, url) ?? pathBelowSegments(scope.prefix, url);
    const response = handleNodeRequest(mount, request.raw, reply.raw, below, body, query(request), request);
    if (response instanceof Promise) return response.then((answered) => send(reply, answered, noOnSendHook(request)));
    // Answered at once (the usual evaluate request): Fastify wants nothing back from a handler that has sent.
    send(reply, response, noOnSendHook(request));
    return undefined;
  };
  // Only body-reading failures are ours to answer (over the limit, a bad Content-Length or media type): the core
  // does, after the key check and with the route's CORS headers, as for a body it reads itself. Anything else, such
  // as a host hook rejecting the request, is rethrown to the host's error handler as it would be for its own routes.
  scope.setErrorHandler((error: { code?: string }, request, reply) => {
    if (!error.code?.startsWith('FST_ERR_CTP_')) throw error;
    return answer(request, reply, { refused: error }) ?? reply;
  });

  const handler = (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined =>
    answer(request, reply, request.body instanceof RawText ? { text: request.body.text } : { parsed: request.body });
  const route = { method: METHODS, handler, bodyLimit: mount.maxBodyBytes };
  scope.route({ ...route, url: '/' });
  scope.route({ ...route, url: '/*' });
  // Below the prefix, whatever no route above takes (another method) is still answered by the core. At the root
  // the 404 handler stays the host's (Fastify allows one per prefix).
  if (scope.prefix) scope.setNotFoundHandler(handler);
}

let routeContext: symbol | null | undefined;

/**
 * Whether no onSend hook will see this request's payload. Only then are sent bytes handed back to the core for
 * reuse (`CoreResponse.release`): a hook such as a response cache may keep the payload. Fastify keeps the route's
 * hooks on its route context, under a symbol it does not export; without that symbol, nothing is handed back.
 */
function noOnSendHook(request: FastifyRequest): boolean {
  routeContext ??= Object.getOwnPropertySymbols(request).find((s) => s.description === 'fastify.context') ?? null;
  if (!routeContext) return false;
  const context = (request as unknown as Record<symbol, { onSend?: unknown } | undefined>)[routeContext];
  return context?.onSend === null;
}

function send(reply: FastifyReply, response: CoreResponse, lends = false): FastifyReply {
  if (response.stream) {
    // Fastify must not touch this response again: the stream stays open and is written to directly.
    reply.hijack();
    sendNodeResponse(reply.raw, response);
    return reply;
  }
  if (lends) releaseWhenSent(reply.raw, response);
  // A host hook may already vary the answer (Accept-Encoding): merged, not replaced.
  const hostVary = response.headers['vary'] === undefined ? undefined : reply.getHeader('vary');
  reply.code(response.status).headers(response.headers);
  if (hostVary !== undefined) reply.header('vary', mergeVary(hostVary, response.headers['vary']!));
  return reply.send(response.body);
}
