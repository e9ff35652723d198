import {
  createMount,
  flagIsOn,
  flagOff,
  handleNodeRequest,
  mergeVary,
  pathBelow,
  requestBinder,
  sendNodeResponse,
  type CoreResponse,
  type FlagKey,
  type Flagmount,
  type MountOptions,
  type RequestFlags,
  type RequestFlagsOptions,
  type RequireFlagOptions,
} from '@flagmount/core';
import type { Context, Middleware, Next } from 'koa';

export type FlagmountKoaOptions = MountOptions;

const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Koa (2 and 3) middleware serving Flagmount under `options.prefix`:
 *
 *     app.use(flagmountKoa(instance, { prefix: '/flags' }));
 *     // or with @koa/router, which does not strip the path (give the full public prefix):
 *     router.all('/flags{/*rest}', flagmountKoa(instance, { prefix: '/flags' }));
 *
 * Requests outside the prefix go on to `next()`; inside it Flagmount answers everything, 404 included. Behind
 * koa-mount (which strips the path) leave `prefix` out. Use it before the host's body parser when you can: a
 * parser that runs first and throws (broken JSON) answers with the host's error instead of Flagmount's body.
 */
export function flagmountKoa(instance: Flagmount, options: FlagmountKoaOptions = {}): Middleware {
  const mount = createMount(instance, options);
  return function flagmount(ctx: Context, next: Next): Promise<void> | void {
    const below = pathBelow(mount.prefix, ctx.url);
    if (below === undefined) return next();
    const parsed = (ctx.request as { body?: unknown }).body;
    // Never rejects (see handleNodeRequest): nothing reaches Koa's error handling or `app.on('error')`.
    const response = handleNodeRequest(mount, ctx.req, ctx.res, below, { parsed }, undefined, ctx);
    if (response instanceof Promise) return response.then((answer) => send(ctx, answer));
    send(ctx, response);
  };
}

function send(ctx: Context, response: CoreResponse): void {
  if (response.stream) {
    // Koa would wait for the middleware chain and then write `ctx.body`; a stream must flush its headers now and
    // stay open, so Koa steps aside and the raw response is written directly.
    ctx.respond = false;
    // A client leaving a live stream may reset its socket; Koa would report that to `app.on('error')` (or print it).
    const hostOnError = ctx.onerror;
    ctx.onerror = (error) => {
      if (!CLIENT_GONE.has((error as { code?: unknown } | null)?.code as string)) hostOnError.call(ctx, error);
    };
    sendNodeResponse(ctx.res, response);
    return;
  }
  // Through ctx rather than the raw response, so the host's upstream middleware (logging, compression, headers
  // set after `await next()`) still sees and can adjust the answer.
  ctx.status = response.status;
  // Upstream middleware may already vary the answer (koa-compress: Accept-Encoding): merged, not replaced.
  const hostVary = response.headers['vary'] === undefined ? '' : ctx.response.get('Vary');
  ctx.set(response.headers);
  if (hostVary) ctx.set('Vary', mergeVary(hostVary, response.headers['vary']!));
  if (response.body !== undefined) {
    ctx.body = response.body;
  } else if (ctx.method !== 'HEAD' && response.status !== 204 && response.status !== 304) {
    // A bodiless answer such as a redirect: left unset, Koa would write its status text as a text/plain body, and
    // `null` would turn the status into 204. HEAD, 204 and 304 Koa already sends without a body.
    ctx.body = '';
    if (!response.headers['content-type']) ctx.remove('Content-Type');
  }
}

declare module 'koa' {
  interface DefaultState {
    /** This request's flags, bound by `requestFlags(instance, { context })`. */
    flags: RequestFlags;
  }
}

/**
 * Binds flags to every request: `app.use(requestFlags(instance, { context: (ctx) => ({ user: ctx.state.user }) }))`,
 * then `ctx.state.flags.isEnabled('beta')` downstream. A failing `context` throws into the host's error handling (500).
 */
export function requestFlags(instance: Flagmount, options: RequestFlagsOptions<Context>): Middleware {
  const binder = requestBinder(instance, options);
  return async function flagmountRequestFlags(ctx: Context, next: Next): Promise<void> {
    const flags = await binder.bind(ctx);
    ctx.state.flags = flags;
    await binder.run(flags, next);
  };
}

/**
 * A route guard: `router.get('/beta', requireFlag('beta'), handler)`. When the flag is off for the request, the host
 * answers as for any missing page (a 404 thrown into its error handling), or `redirect`, or `handler`.
 */
export function requireFlag(flagKey: FlagKey, options: RequireFlagOptions<Middleware> = {}): Middleware {
  return async function flagmountRequireFlag(ctx: Context, next: Next): Promise<void> {
    if (flagIsOn(ctx.state.flags as RequestFlags | undefined, flagKey)) await next();
    else if (options.handler) await options.handler(ctx, next);
    else if (options.redirect !== undefined) ctx.redirect(options.redirect);
    else throw flagOff(flagKey, options.status);
  };
}
