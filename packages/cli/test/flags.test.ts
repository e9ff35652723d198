import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, MANAGEMENT_KEY, seed, startMount, tempDir, type RunningMount } from './support/cli.js';

/** `flags list` and `flags on|off` through both transports; the audit log names who ran them. */
describe.each(['sqlite', 'url'] as const)('flags against %s', (transport) => {
  let tmp: ReturnType<typeof tempDir>;
  let mount: RunningMount;
  let args: string[];
  const filename = () => join(tmp.dir, 'flags.db');

  beforeEach(async () => {
    tmp = tempDir();
    mount = await startMount(filename());
    await seed(mount);
    if (transport === 'sqlite') await mount.close();
    args = transport === 'sqlite' ? ['--db', 'flags.db'] : ['--url', mount.url, '--key', MANAGEMENT_KEY];
  });
  afterEach(async () => {
    if (transport === 'url') await mount.close();
    tmp.remove();
  });

  /** Reads the store through a mount (the SQLite file is closed between commands). */
  async function inspect<T>(fn: (m: RunningMount) => Promise<T>): Promise<T> {
    if (transport === 'url') return fn(mount);
    const m = await startMount(filename());
    try {
      return await fn(m);
    } finally {
      await m.close();
    }
  }

  it('lists every flag with its stage and its status in each environment', async () => {
    const listed = await cli(['flags', 'list', ...args], tmp.dir);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n').map((l) => l.split(/\s{2,}/));
    expect(lines).toEqual([
      ['KEY', 'NAME', 'STAGE', 'DEVELOPMENT', 'PRODUCTION'],
      ['banner', 'Banner', '-', 'off', 'everyone'],
      ['legacy-search', 'Legacy search (archived)', '-', 'off', 'off'],
      ['new-checkout', 'New checkout', 'Beta', 'targeted', 'targeted'],
    ]);
  });

  it('turns a flag on for everyone and off again in one environment, audited, config kept, one version each', async () => {
    const versions = () =>
      inspect(async (m) => {
        const { data } = await m.api('GET', `/apps/${m.appId}/environments`);
        return Object.fromEntries(data.map((e: { name: string; flagStateVersion: number }) => [e.name, e.flagStateVersion]));
      });
    const before = await versions();
    const on = await cli(['flags', 'on', 'new-checkout', '--env', 'production', ...args], tmp.dir);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(/^new-checkout is on for everyone in Production/);
    expect(await versions()).toEqual({ ...before, Production: before['Production'] + 1 });
    expect((await cli(['flags', 'list', ...args], tmp.dir)).stdout).toMatch(/new-checkout\s+New checkout\s+Beta\s+targeted\s+everyone/);

    const off = await cli(['flags', 'off', 'banner', '--env', 'Production', ...args], tmp.dir);
    expect(off.code, off.stderr).toBe(0);
    const state = await inspect(async (m) => ({
      banner: await m.api('GET', `/apps/${m.appId}/flags/banner/targeting/${m.envId('Production')}`),
      audit: (await m.api('GET', `/apps/${m.appId}/audit`)).data,
      evaluated: m.instance.clientFor('Production').getFlag({ user: { id: 'u1' } }, 'banner').isEnabled,
    }));
    expect(state.banner.rules).toEqual([]);
    expect(state.banner.config.variants.map((v: { key: string }) => v.key)).toEqual(['blue']);
    expect(state.evaluated).toBe(false);
    const actor = transport === 'url' ? (await inspect((m) => m.api('GET', '/keys'))).data[0].id : 'cli:tester';
    const toggles = state.audit.filter((e: { action: string }) => e.action === 'flag.targeting.updated').slice(0, 2);
    expect(toggles.map((e: { actor: string }) => e.actor)).toEqual([actor, actor]);
  });

  it('refuses an unknown flag, environment or app with one line and exit code 1', async () => {
    const flag = await cli(['flags', 'on', 'typo', '--env', 'Production', ...args], tmp.dir);
    expect(flag).toEqual({ code: 1, stdout: '', stderr: 'flagmount: Flag typo not found\n' });
    const env = await cli(['flags', 'off', 'banner', '--env', 'Staging', ...args], tmp.dir);
    expect(env).toEqual({ code: 1, stdout: '', stderr: 'flagmount: No environment "Staging" in My app (environments: Development, Production)\n' });
    const app = await cli(['flags', 'list', '--app', 'Other', ...args], tmp.dir);
    expect(app.code).toBe(1);
    expect(app.stderr).toMatch(/^flagmount: No app "Other" in .* \(apps: My app\)\n$/);
    const noEnv = await cli(['flags', 'on', 'banner', ...args], tmp.dir);
    expect(noEnv.code).toBe(2);
    expect(noEnv.stderr).toContain('needs --env');
  });
});

describe('flags on|off on the SQLite file of a running host', () => {
  it('reaches the host within its poll interval: a kill switch from a terminal', async () => {
    const tmp = tempDir();
    const host = await startMount(join(tmp.dir, 'live.db'), 100);
    try {
      await seed(host);
      const client = host.instance.clientFor('Production');
      expect(client.isEnabled('new-checkout', { company: { id: 'other' } })).toBe(false);
      const on = await cli(['flags', 'on', 'new-checkout', '--env', 'Production', '--db', 'live.db'], tmp.dir);
      expect(on.code, on.stderr).toBe(0);
      await expect.poll(() => client.isEnabled('new-checkout', { company: { id: 'other' } }), { timeout: 5_000 }).toBe(true);
      const off = await cli(['flags', 'off', 'banner', '--env', 'Production', '--db', 'live.db'], tmp.dir);
      expect(off.code, off.stderr).toBe(0);
      await expect.poll(() => client.isEnabled('banner', { user: { id: 'u' } }), { timeout: 5_000 }).toBe(false);
    } finally {
      await host.close();
      tmp.remove();
    }
  });
});
