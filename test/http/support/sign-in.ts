import type { HostPerson } from '@flagmount/core';

/**
 * A host's sign-in for tests: the session cookie `who` holds the person as base64url JSON, read from the framework's
 * request as the host would read its own session (Express `req`, Koa `ctx` and Fastify `request` all have `headers`).
 */
export const SESSION_COOKIE = 'who';

export function sessionCookie(person: HostPerson | Record<string, unknown>): string {
  return `${SESSION_COOKIE}=${Buffer.from(JSON.stringify(person)).toString('base64url')}`;
}

export function cookieAuthenticate(hostRequest: { headers: Record<string, string | string[] | undefined> }): HostPerson | null {
  const cookie = hostRequest.headers['cookie'];
  const found = typeof cookie === 'string' ? /(?:^|;\s*)who=([^;]+)/.exec(cookie) : null;
  return found ? (JSON.parse(Buffer.from(found[1]!, 'base64url').toString('utf8')) as HostPerson) : null;
}

export const ALICE: HostPerson = { id: 'alice', name: 'Alice Admin', email: 'alice@example.com', role: 'admin' };
export const VERA: HostPerson = { id: 'vera', name: 'Vera Viewer', role: 'viewer' };
/** Edits Development, only reads Production. */
export const DEV_EDITOR: HostPerson = { id: 'dora', name: 'Dora Dev', role: 'editor', environments: { Production: 'viewer' } };

/** Headers of a same-origin browser request carrying the person's session. */
export const asPerson = (person: HostPerson | Record<string, unknown>, site = 'same-origin') => ({
  key: null,
  headers: { cookie: sessionCookie(person), 'sec-fetch-site': site },
});
