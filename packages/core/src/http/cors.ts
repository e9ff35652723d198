import type { ResolvedOptions } from '../options.js';
import type { CoreRequest } from './types.js';

/** The headers the Reflag browser SDK sends; `*` does not cover `authorization` (Fetch standard). */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'reflag-sdk-version', 'bucket-sdk-version'];

function originAllowed(origin: string, allowed: ResolvedOptions['cors']['origins']): boolean {
  if (allowed === '*') return true;
  if (typeof allowed === 'function') return allowed(origin);
  return allowed.includes(origin);
}

/**
 * No headers to add. Shared and frozen: most requests (every server-side SDK's) are not cross-origin, and the
 * handler then adds nothing to the response instead of merging an empty object into a copy of its headers.
 */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** CORS headers for a response to `request`, or `NO_HEADERS` when the request is not cross-origin or not allowed. */
export function corsHeaders(request: CoreRequest, cors: ResolvedOptions['cors']): Readonly<Record<string, string>> {
  const origin = request.headers.origin;
  if (!origin || !originAllowed(origin, cors.origins)) return NO_HEADERS;
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    vary: 'Origin',
    'access-control-expose-headers': 'content-type, etag',
  };
  if (cors.credentials) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

export function preflightHeaders(request: CoreRequest, cors: ResolvedOptions['cors']): Readonly<Record<string, string>> {
  const base = corsHeaders(request, cors);
  if (!base['access-control-allow-origin']) return base;
  const requested = (request.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => /^[a-z0-9-]+$/.test(h));
  return {
    ...base,
    vary: 'Origin, Access-Control-Request-Headers',
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '),
    'access-control-max-age': '600',
  };
}
