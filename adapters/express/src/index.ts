import {
  createMount,
  disconnectSignal,
  errorResponse,
  HttpError,
  nodeRequestBody,
  pathBelow,
  sendNodeResponse,
  toCoreRequest,
  unreadableRequestResponse,
  type Flagmount,
  type MountOptions,
} from '@flagmount/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export type FlagmountExpressOptions = MountOptions;

/**
 * Express middleware serving Flagmount: `app.use('/flags', flagmountExpress(instance))`. Express strips the
 * mount path from `req.url`; `options.prefix` is only for hosts that mount it at the root.
 */
export function flagmountExpress(instance: Flagmount, options: FlagmountExpressOptions = {}): RequestHandler {
  const mount = createMount(instance, options);
  return function flagmount(req: Request, res: Response, next: NextFunction): void {
    const below = pathBelow(mount.prefix, req.url);
    if (below === undefined) {
      next();
      return;
    }
    serve(req, res, below).catch(() => {
      // The core handler never rejects; this only guards the translation itself.
      sendNodeResponse(res, errorResponse(new HttpError(500, 'unknown_error', 'Unexpected error')));
    });
  };

  async function serve(req: Request, res: Response, pathAndQuery: string): Promise<void> {
    let body;
    try {
      body = await nodeRequestBody(req, (req as { body?: unknown }).body, mount.maxBodyBytes);
    } catch (error) {
      sendNodeResponse(res, unreadableRequestResponse(error));
      return;
    }
    const response = await mount.handle(toCoreRequest(req, pathAndQuery, body, disconnectSignal(req, res)));
    sendNodeResponse(res, response);
  }
}
