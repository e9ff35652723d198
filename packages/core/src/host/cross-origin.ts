import type { CoreRequest } from '../http/types.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request riding on the host's cookie comes from another site, as Go's `http.CrossOriginProtection`
 * decides it: safe methods pass; `Sec-Fetch-Site` (every current browser sends it) must be `same-origin` or `none`
 * (typed in the address bar); without it, an `Origin` must name this host; a request with neither header is not
 * from a browser, so no cookie of a visitor's rides on it. `trusted` origins pass (a dashboard on another host).
 */
export function isCrossOrigin(request: CoreRequest, trusted: readonly string[]): boolean {
  if (SAFE.has(request.method)) return false;
  const origin = request.headers['origin'];
  if (origin !== undefined && trusted.includes(origin.toLowerCase())) return false;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  if (origin === undefined) return false;
  return hostOf(origin) !== request.headers['host']?.toLowerCase();
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}
