import {
  createMount,
  flagIsOn,
  flagOff,
  handleNodeRequest,
  pathBelow,
  requestBinder,
  sendNodeResponse,
  type FlagKey,
  type Flagmount,
  type MountOptions,
  type RequestFlags,
  type RequestFlagsOptions,
  type RequireFlagOptions,
} from '@flagmount/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export type FlagmountExpressOptions = MountOptions;

/**
 * Express (4 and 5) middleware serving Flagmount: `app.use('/flags', flagmountExpress(instance))`. Express strips
 * the mount path from `req.url`; `options.prefix` is only for hosts that mount it at the root.
 *
 * Mount it before the host's body parser when you can: a parser that runs first and fails (broken JSON, its own
 * size limit) answers with the host's error page instead of Flagmount's error body. A body it parsed is used.
 */
export function flagmountExpress(instance: Flagmount, options: FlagmountExpressOptions = {}): RequestHandler {
  const mount = createMount(instance, options);
  return function flagmount(req: Request, res: Response, next: NextFunction): void {
    const below = pathBelow(mount.prefix, req.url);
    if (below === undefined) {
      next();
      return;
    }
    // Never rejects (see handleNodeRequest): nothing reaches Express's error handler.
    const response = handleNodeRequest(mount, req, res, below, { parsed: (req as { body?: unknown }).body }, undefined, req);
    if (response instanceof Promise) void response.then((answer) => sendNodeResponse(res, answer));
    else sendNodeResponse(res, response);
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** This request's flags, bound by `requestFlags(instance, { context })`. */
      flags: RequestFlags;
    }
  }
}

/**
 * Binds flags to every request: `app.use(requestFlags(instance, { context: (req) => ({ user: req.user }) }))`, then
 * `req.flags.isEnabled('beta')` in any later handler. A failing `context` reaches the host's error handler (500).
 */
export function requestFlags(instance: Flagmount, options: RequestFlagsOptions<Request>): RequestHandler {
  const binder = requestBinder(instance, options);
  return function flagmountRequestFlags(req: Request, _res: Response, next: NextFunction): void {
    let bound: RequestFlags | Promise<RequestFlags>;
    try {
      bound = binder.bind(req);
    } catch (error) {
      next(error);
      return;
    }
    if (bound instanceof Promise) {
      bound.then((flags) => {
        req.flags = flags;
        binder.run(flags, next);
      }, next);
      return;
    }
    req.flags = bound;
    binder.run(bound, next);
  };
}

/**
 * A route guard: `app.get('/beta', requireFlag('beta'), handler)`. When the flag is off for the request, the host
 * answers as for any missing page, or `status` through its error handler, or `redirect`, or `handler`.
 */
export function requireFlag(flagKey: FlagKey, options: RequireFlagOptions<RequestHandler> = {}): RequestHandler {
  return function flagmountRequireFlag(req: Request, res: Response, next: NextFunction): void {
    let on: boolean;
    try {
      on = flagIsOn(req.flags, flagKey);
    } catch (error) {
      next(error);
      return;
    }
    if (on) next();
    else if (options.handler) void options.handler(req, res, next);
    else if (options.redirect !== undefined) res.redirect(options.redirect);
    // In a route (`app.get(path, requireFlag(…), handler)`) the route is skipped, so the host's own not-found
    // answer follows; elsewhere (`app.use`) skipping would run what it guards, so a 404 goes to the error handler.
    else if (options.status === undefined && req.route) next('route');
    else next(flagOff(flagKey, options.status));
  };
}
