import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Starts an example app as `npm start` would (tsx), on a free port and a fresh SQLite file; resolves its origin. */
function startExample(name: string, dir: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${name}/src/main.ts`], {
    cwd: root,
    env: { ...process.env, PORT: '0', FLAGMOUNT_DB: join(dir, `${name}.db`), FLAGMOUNT_MANAGEMENT_KEY: '', SESSION_SECRET: 'x'.repeat(40) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${out}`)), 60_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const found = /Flagmount example on \w+: (http:\/\/localhost:\d+)\//.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve({ child, origin: found[1]! });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}:\n${out}`)));
  });
}

for (const name of ['express-app', 'koa-app', 'fastify-app']) {
  describe(`examples/${name}`, () => {
    let app: { child: ChildProcess; origin: string };
    const dir = mkdtempSync(join(tmpdir(), 'flagmount-example-'));
    beforeAll(async () => {
      app = await startExample(name, dir);
    }, 90_000);
    afterAll(() => {
      app?.child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    });

    it('signs a person in with the host session: dashboard API without a key, CSRF refused, bootstrapped page, requireFlag, sign-out', async () => {
      const at = (path: string, init: RequestInit & { cookie?: string } = {}) =>
        fetch(app.origin + path, { ...init, redirect: 'manual', headers: { ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.headers as Record<string, string>) } });
      const json = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
      const login = await at('/login', { method: 'POST', headers: json, body: JSON.stringify({ name: 'alice', role: 'admin' }) });
      expect(login.status).toBe(200);
      const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      expect(cookie).not.toBe('');
      const me = await (await at('/flags/me', { cookie })).json();
      expect(me).toEqual({ actor: { type: 'person', id: 'alice', name: 'alice', email: 'alice@example.com', role: 'admin' } });
      expect((await at('/flags/ui/', { cookie })).status).toBe(200);
      const [appRow] = (await (await at('/flags/apps', { cookie })).json()).data;
      const evil = await at(`/flags/apps/${appRow.id}/flags`, { method: 'POST', cookie, headers: { ...json, 'sec-fetch-site': 'cross-site' }, body: JSON.stringify({ key: 'beta', name: 'Beta' }) });
      expect(evil.status).toBe(403);
      const created = await at(`/flags/apps/${appRow.id}/flags`, { method: 'POST', cookie, headers: json, body: JSON.stringify({ key: 'beta', name: 'Beta' }) });
      expect(created.status).toBe(200);
      expect((await at('/beta', { cookie })).status).toBe(404);
      const envs = (await (await at(`/flags/apps/${appRow.id}/environments`, { cookie })).json()).data;
      const dev = envs.find((e: { name: string }) => e.name === 'Development');
      const on = await at(`/flags/apps/${appRow.id}/flags/beta/targeting/${dev.id}`, { method: 'PUT', cookie, headers: json, body: JSON.stringify({ rules: [{ filter: { type: 'constant', value: true } }] }) });
      expect(on.status).toBe(200);
      expect((await at('/beta', { cookie })).status).toBe(200);
      const page = await (await at('/', { cookie })).text();
      expect(page).toContain('"flagStateVersion"');
      expect(page).toContain('Signed in as <b>alice</b>');
      expect((await at('/assets/reflag-browser-sdk.js')).status).toBe(200);
      const audit = (await (await at(`/flags/apps/${appRow.id}/audit`, { cookie })).json()).data;
      expect(audit.find((e: { action: string }) => e.action === 'flag.created')).toMatchObject({ actor: 'member:alice', actorName: 'alice' });
      const logout = await at('/logout', { method: 'POST', cookie, headers: json, body: '{}' });
      expect(logout.status).toBe(200);
      // A cookie-held session (koa-session) ends by the browser taking the cleared cookie.
      const cleared = logout.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      expect((await at('/flags/me', { cookie: cleared || cookie })).status).toBe(401);
      const form = await at('/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Vera&role=viewer' });
      expect(form.status).toBe(303);
    }, 60_000);
  });
}
