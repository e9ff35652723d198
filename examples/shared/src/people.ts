/**
 * The examples' demo sign-in and pages, framework-free. A real host has its own sign-in (Passport, a session
 * store, an identity provider); this one signs in whoever posts a name and a role, because it is a demo.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FlagContext, HostPerson, RequestFlags, Role } from '@flagmount/core';
import { PREFIX } from './example.js';

/** What the session keeps about the signed-in person. */
export type SessionPerson = HostPerson;

const ROLES: readonly Role[] = ['admin', 'editor', 'viewer'];

/** `POST /login` with a form or JSON body `{ name, role }`: the person, or why not. */
export function personFromLogin(body: unknown): SessionPerson | string {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const name = typeof fields['name'] === 'string' ? fields['name'].trim() : '';
  const role = fields['role'] ?? 'viewer';
  if (!name || name.length > 100) return 'name is required (at most 100 characters)';
  if (!ROLES.includes(role as Role)) return `role must be one of ${ROLES.join(', ')}`;
  const id = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'person';
  return { id, name, email: `${id}@example.com`, role: role as Role };
}

/** The mount's `authenticate`: the session's person, when it looks like one. */
export function sessionPerson(session: { person?: unknown } | null | undefined): SessionPerson | null {
  const person = session?.person;
  return typeof person === 'object' && person !== null ? (person as SessionPerson) : null;
}

/** The flags context of a request: the signed-in person as the user, anonymous otherwise. */
export function flagContext(person: SessionPerson | null): FlagContext {
  return person ? { user: { id: person.id, name: person.name, role: person.role } } : {};
}

let browserSdk: string | undefined;
/** The published browser SDK (its UMD build, `window.ReflagBrowserSDK`), served by the host for its pages. */
export function browserSdkScript(): string {
  browserSdk ??= readFileSync(createRequire(import.meta.url).resolve('@reflag/browser-sdk'), 'utf8');
  return browserSdk;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A server-rendered page: the flags are evaluated here, in the request, and handed to the browser SDK as its
 * bootstrapped state, so the browser makes no flag request at start and still gets live updates.
 */
export function renderPage(framework: string, flags: RequestFlags, person: SessionPerson | null, publishableKey: string | undefined): string {
  const bootstrap = JSON.stringify(flags.getFlagsForBootstrap()).replace(/</g, '\\u003c');
  const config = JSON.stringify({ publishableKey, apiBaseUrl: PREFIX }).replace(/</g, '\\u003c');
  const who = person ? `Signed in as <b>${escape(person.name)}</b> (${person.role}).` : 'Not signed in.';
  return `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><link rel="icon" href="data:,"><title>Flagmount on ${framework}</title>
<h1>Flagmount on ${framework}</h1>
<p>${who} ${person ? '<form method="post" action="/logout" style="display:inline"><button>Sign out</button></form>' : ''}</p>
${person ? '' : `<form method="post" action="/login">
  <label>Name <input name="name" required></label>
  <label>Role <select name="role"><option>admin</option><option>editor</option><option>viewer</option></select></label>
  <button>Sign in</button>
</form>`}
<ul>
  <li><a href="${PREFIX}/ui">${PREFIX}/ui</a>: the dashboard, signed in as you (no key to paste)</li>
  <li><a href="/beta">/beta</a>: behind <code>requireFlag('beta')</code> (404 while the flag is off for you)</li>
  <li><a href="/api/checkout">/api/checkout</a>: <code>new-checkout</code> for you, from <code>req.flags</code></li>
</ul>
<p>Flags on this page, rendered by the server: <code id="flags">${escape(Object.keys(flags.getFlags()).filter((k) => flags.isEnabled(k)).join(', ') || 'none on')}</code></p>
<p>Browser SDK: <code id="browser">starting…</code></p>
<script src="/assets/reflag-browser-sdk.js"></script>
<script>window.FLAGMOUNT = { bootstrap: ${bootstrap}, config: ${config} };</script>
<script src="/assets/page.js"></script>`;
}

/** The page's script: the browser SDK started from the bootstrapped state, with live updates over SSE. */
export const PAGE_SCRIPT = `(async () => {
  const { bootstrap, config } = window.FLAGMOUNT;
  const shown = document.getElementById('browser');
  if (!config.publishableKey) { shown.textContent = 'no publishable key'; return; }
  const client = new window.ReflagBrowserSDK.ReflagClient({
    publishableKey: config.publishableKey,
    apiBaseUrl: new URL(config.apiBaseUrl, location.href).href,
    user: bootstrap.context.user,
    company: bootstrap.context.company,
    bootstrappedState: bootstrap,
    enableLiveFlagUpdates: true,
  });
  const show = () => {
    const on = Object.values(client.getFlags()).filter((f) => f.isEnabled).map((f) => f.key);
    shown.textContent = on.join(', ') || 'none on';
  };
  client.on('flagsUpdated', show);
  await client.initialize();
  show();
})();`;

/** The publishable key of the environment the in-process client evaluates in, for the page's browser SDK. */
export function publishableKeyOf(instance: { client: { environment: string }; services: { snapshots: { all(): Array<{ environment: { id: string; name: string; publishableKey: string } }> } } }): string | undefined {
  const all = instance.services.snapshots.all();
  const wanted = instance.client.environment.toLowerCase();
  return (all.find((s) => s.environment.id === instance.client.environment || s.environment.name.toLowerCase() === wanted) ?? all[0])?.environment.publishableKey;
}

/** A session secret for the demo: `SESSION_SECRET`, else one made at start (sessions then end with the process). */
export const SESSION_SECRET = process.env['SESSION_SECRET'] || randomBytes(32).toString('hex');
