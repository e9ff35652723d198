import { CliError, EXIT } from '../errors.js';
import { apiError, type Api } from './api.js';

/** The management API of a running mount, over fetch, with the management key as bearer. */
export function httpApi(url: string, key: string): Api {
  let base: URL;
  try {
    base = new URL(url.replace(/\/+$/, ''));
  } catch {
    throw new CliError(`--url ${url} is not a URL (e.g. http://localhost:3000/flags)`, EXIT.usage);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new CliError(`--url ${url} is not an http(s) URL`, EXIT.usage);
  const target = base.href;
  return {
    target,
    async request<T>(method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}): Promise<T> {
      const address = new URL(base.href + path);
      for (const [name, value] of Object.entries(options.query ?? {})) address.searchParams.set(name, value);
      let response: Response;
      try {
        response = await fetch(address, {
          method,
          headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        throw new CliError(`Cannot reach ${target}: ${reason(error)}`, EXIT.unreachable);
      }
      const text = await response.text();
      if (!response.ok) throw apiError(response.status, text, target);
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new CliError(`${target} did not answer as a Flagmount mount (not JSON)`, EXIT.unreachable);
      }
    },
    async close() {},
  };
}

/** fetch's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, a timeout…). */
function reason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer within 30 s';
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
