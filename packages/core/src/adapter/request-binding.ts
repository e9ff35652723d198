import type { Flagmount } from '../create-flagmount.js';
import { RequestFlags } from '../client/request-flags.js';
import type { FlagContext, FlagKey } from '../client/types.js';

/** How an adapter binds flags to each host request (Express `requestFlags`, Koa `requestFlags`, Fastify's plugin). */
export interface RequestFlagsOptions<HostRequest = any> {
  /**
   * The evaluation context of a request (`{ user?, company?, other? }`), from the host's own request: its
   * signed-in user, their company, the page. May be async. null or undefined: an anonymous request (`{}`).
   */
  context: (hostRequest: HostRequest) => FlagContext | null | undefined | Promise<FlagContext | null | undefined>;
  /** Make `flags.current()` answer this request's flags anywhere below its handler (AsyncLocalStorage; off by default). */
  current?: boolean;
  /** The environment requests evaluate in (id or name); default the instance's client's. */
  environment?: string;
}

/**
 * An error for the host's own error path (Express's error middleware, Koa's, Fastify's error handler): the status
 * is one every framework reads, and the message tells the developer, never the visitor (`expose` false).
 */
export class HostRouteError extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly expose: boolean;

  constructor(status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HostRouteError';
    this.status = status;
    this.statusCode = status;
    this.expose = status < 500;
  }
}

export interface RequestBinder<HostRequest = any> {
  /** The request's flags; a promise when `context` is async. Throws or rejects with a `HostRouteError` (500). */
  bind(hostRequest: HostRequest): RequestFlags | Promise<RequestFlags>;
  /** Runs the rest of the request (`next`) with these flags as `flags.current()`'s, when `current` is on. */
  run<T>(flags: RequestFlags, fn: () => T): T;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A context member that is given but is not an object. */
const notObject = (member: unknown): boolean => member !== undefined && !isObject(member);

export function requestBinder<HostRequest>(instance: Flagmount, options: RequestFlagsOptions<HostRequest>): RequestBinder<HostRequest> {
  if (typeof options?.context !== 'function') throw new TypeError('Flagmount requestFlags: the option context must be a function');
  const client = options.environment === undefined ? instance.client : instance.clientFor(options.environment);
  const { logger } = instance.services;
  const scope = instance.requestScope;
  if (options.current) scope.enable();

  const failed = (error: unknown): never => {
    logger.error('flagmount: the context function threw; the request fails with 500', { error });
    throw new HostRouteError(500, 'Flagmount: the context function failed', { cause: error });
  };
  const checked = (context: unknown): RequestFlags => {
    if (context === null || context === undefined) return new RequestFlags(client, {});
    // Per request, so written out: no array or closure for the three members.
    const bad = !isObject(context) || notObject(context.user) || notObject(context.company) || notObject(context.other);
    if (bad) {
      logger.error('flagmount: the context function returned no context ({ user?, company?, other? }); the request fails with 500');
      throw new HostRouteError(500, 'Flagmount: the context function returned no context');
    }
    return new RequestFlags(client, context as FlagContext);
  };
  return {
    bind(hostRequest) {
      let context: ReturnType<RequestFlagsOptions['context']>;
      try {
        context = options.context(hostRequest);
      } catch (error) {
        return failed(error);
      }
      return context instanceof Promise ? context.then(checked, failed) : checked(context);
    },
    run: (flags, fn) => scope.run(flags, fn),
  };
}

/** What a route guard does when its flag is off: a status for the host's error path (404 by default), a redirect, or the host's handler. */
export interface RequireFlagOptions<Handler> {
  /** The status of the error handed to the host's error path; default 404 (Fastify: the host's not-found handler). */
  status?: number;
  /** Redirect here instead (302). */
  redirect?: string;
  /** Answer with the host's own handler instead. */
  handler?: Handler;
}

/** Whether the request's flag is on; a request without bound flags is the host's setup mistake (500, said how to fix). */
export function flagIsOn(flags: RequestFlags | undefined, flagKey: FlagKey): boolean {
  if (!(flags instanceof RequestFlags)) {
    throw new HostRouteError(500, 'Flagmount requireFlag: this request has no flags; install requestFlags (or the context option) before the guard');
  }
  return flags.isEnabled(flagKey);
}

export const flagOff = (flagKey: string, status = 404): HostRouteError =>
  new HostRouteError(status, status === 404 ? 'Not Found' : `The flag ${flagKey} is off`);
