import type { ErrorBody } from './types.js';

/** An answer other than 2xx, with the spec's error body when the server sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Dotted field path ("" for the body itself) → messages. */
  readonly issues: Record<string, string[]>;

  constructor(status: number, body: Partial<ErrorBody> | undefined, fallback: string) {
    super(body?.error?.message ?? fallback);
    this.name = 'ApiError';
    this.status = status;
    this.code = body?.error?.code ?? (status === 0 ? 'network_error' : 'unknown_error');
    this.issues = body?.issues ?? {};
  }

  /** Messages for one field: its own path and, with `nested`, every path below it. */
  issuesAt(path: string, nested = false): string[] {
    return Object.entries(this.issues)
      .filter(([p]) => p === path || (nested && p.startsWith(`${path}.`)))
      .flatMap(([, messages]) => messages);
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface ApiClient {
  get<T>(path: string, query?: Query): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, query?: Query): Promise<T>;
}

/**
 * The mount's API lives beside the page: the page is `<prefix>/ui/`, so the API base is `<prefix>`. Requests are
 * same-origin, so the host's session cookie rides along; a management key, when the person signed in with one,
 * goes as a Bearer token.
 */
export function apiBase(pathname = location.pathname): string {
  const at = pathname.lastIndexOf('/ui/');
  return at >= 0 ? pathname.slice(0, at) : pathname.replace(/\/ui$/, '');
}

export function createApiClient(base: string, bearer: () => string | undefined, fetcher: typeof fetch = fetch): ApiClient {
  async function request<T>(method: string, path: string, body: unknown, query: Query | undefined): Promise<T> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') qs.set(k, String(v));
    const url = `${base}/${path.replace(/^\//, '')}${qs.size ? `?${qs}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    const key = bearer();
    if (key) headers['authorization'] = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetcher(url, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new ApiError(0, undefined, 'The server could not be reached. Check the connection and try again.');
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) throw new ApiError(res.status, json as Partial<ErrorBody> | undefined, `${res.status} ${res.statusText}`);
    return json as T;
  }
  return {
    get: (path, query) => request('GET', path, undefined, query),
    send: (method, path, body, query) => request(method, path, body, query),
  };
}

/** Path segments are user data (flag keys, user ids): always encoded. */
export const seg = (value: string) => encodeURIComponent(value);
