import { createMount, handleNodeRequest, pathBelow, sendNodeResponse, type Flagmount, type MountOptions } from '@flagmount/core';
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
