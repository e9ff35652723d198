import type { HostAuthenticate } from '../host/host-authenticate.js';
import type { CorsOptions } from '../options.js';

/** Options every framework adapter takes, typed once here so the three behave alike. */
export interface MountOptions {
  /**
   * Where the routes live. Express takes it from `app.use(prefix, …)` and Fastify from `register(…, { prefix })`;
   * Koa (no router) and hosts that mount at the root use this.
   */
  prefix?: string;
  /** Serve the management routes on this mount (default: as configured in `createFlagmount`). */
  management?: boolean;
  /** Serve the runtime routes on this mount (default: as configured in `createFlagmount`). */
  runtime?: boolean;
  /** CORS for this mount's routes; defaults to the instance's `cors` option. */
  cors?: CorsOptions;
  /** Largest request body this mount reads, in bytes; defaults to the instance's `maxBodyBytes`. */
  maxBodyBytes?: number;
  /**
   * The host's sign-in for the management API and the dashboard: the person signed in on this request (Express
   * `req`, Koa `ctx`, Fastify `request`) as `{ id, name, email?, role, environments? }`, or null. May be async.
   * Asked only for management requests that carry no bearer key; keys keep working beside it.
   */
  authenticate?: HostAuthenticate;
  /**
   * Origins allowed to send cookie-authenticated writes though they are not this site (`https://admin.example.com`).
   * Same-origin requests always pass; others are refused (403) without a token to manage.
   */
  trustedOrigins?: string[];
}

/** `/flags/` → `/flags`, `flags` → `/flags`, `/` or '' → ''. */
export function normalizePrefix(prefix: string | undefined): string {
  if (!prefix) return '';
  const trimmed = prefix.replace(/\/+$/, '');
  if (!trimmed) return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The path below `prefix`, or `undefined` when `path` lies outside it (`/flagsx` is outside `/flags`). */
export function pathBelow(prefix: string, path: string): string | undefined {
  if (!prefix) return path || '/';
  if (path === prefix) return '/';
  if (path.startsWith(prefix + '/') || path.startsWith(prefix + '?')) return path.slice(prefix.length);
  return undefined;
}

/**
 * `url` below as many path segments as `prefix` has: for a router that matched the prefix spelled another way
 * (other letter case, percent-escaped letters, doubled slashes), so that the text does not start with it.
 */
export function pathBelowSegments(prefix: string, url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  let at = 0;
  for (let n = prefix.split('/').filter(Boolean).length; n > 0 && at < path.length; n--) {
    while (path[at] === '/') at++;
    const next = path.indexOf('/', at);
    at = next === -1 ? path.length : next;
  }
  return (path.slice(at) || '/') + (q === -1 ? '' : url.slice(q));
}
