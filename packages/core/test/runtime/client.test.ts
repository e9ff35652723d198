import { createFlagmount, type Flagmount } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedFlags, userIs } from '../../../../test/http/runtime/support/seed.js';

interface Logged {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

let fm: Flagmount;
let logs: Logged[];
let devId: string;
let prodId: string;

beforeEach(async () => {
  logs = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void logs.push({ level, message, ...(fields ? { fields } : {}) });
  fm = await createFlagmount({
    storage: memoryStorage(),
    bootstrap: true,
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
  });
  const envs = fm.bootstrap!.environments;
  devId = envs.find((e) => e.name === 'Development')!.id;
  prodId = envs.find((e) => e.name === 'Production')!.id;
  await seedFlags(fm, fm.bootstrap!.appId, [
    { key: 'on-for-u1', rules: { [devId]: [userIs('u1')], [prodId]: [userIs('p1')] } },
    {
      key: 'with-config',
      rules: { [devId]: [{ type: 'constant', value: true }] },
      variants: { [devId]: [{ key: 'blue', payload: { color: 'blue' }, filter: { type: 'constant', value: true } }] },
    },
  ]);
});

afterEach(async () => {
  await fm.close();
});

const checks = () => fm.services.storage.events.listChecks(devId, 100);

describe('FlagmountClient (in-process)', () => {
  it('evaluates synchronously from the compiled snapshot, in the default environment (order 0)', () => {
    expect(fm.client.isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(true);
    expect(fm.client.isEnabled('on-for-u1', { user: { id: 'u2' } })).toBe(false);
    expect(fm.client.getFlag({ user: { id: 'u1' } }, 'with-config').config).toEqual({ key: 'blue', payload: { color: 'blue' } });
    expect(fm.client.getFlag({}, 'on-for-u1').config).toEqual({ key: undefined, payload: undefined });
  });

  it('selects another environment by id or by name', () => {
    for (const env of [prodId, 'Production']) {
      const client = fm.clientFor(env);
      expect(client.isEnabled('on-for-u1', { user: { id: 'p1' } })).toBe(true);
      expect(client.isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(false);
    }
  });

  it('names an environment in any case', () => {
    expect(fm.clientFor('production').isEnabled('on-for-u1', { user: { id: 'p1' } })).toBe(true);
    expect(fm.clientFor('DEVELOPMENT').isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(true);
  });

  it('the default client of an instance started on an empty store evaluates once another instance bootstraps it', async () => {
    const storage = memoryStorage();
    const early = await createFlagmount({ storage: { ...storage, close: async () => {} } as typeof storage });
    try {
      expect(early.client.isEnabled('on', {})).toBe(false);
      const bootstrapper = await createFlagmount({ storage, bootstrap: true });
      const [dev] = bootstrapper.bootstrap!.environments;
      await seedFlags(bootstrapper, bootstrapper.bootstrap!.appId, [{ key: 'on', rules: { [dev!.id]: [{ type: 'constant', value: true }] } }]);
      await early.services.snapshots.reload(dev!.id);
      expect(early.client.isEnabled('on', {})).toBe(true);
      await bootstrapper.close();
    } finally {
      await early.close();
    }
  });

  it('an unknown flag is false, never throws, and is warned about once per key', () => {
    expect(fm.client.isEnabled('nope', { user: { id: 'u1' } })).toBe(false);
    expect(fm.client.getFlag({}, 'nope').isEnabled).toBe(false);
    expect(fm.client.isEnabled('nope2')).toBe(false);
    const warnings = logs.filter((l) => l.level === 'warn' && /unknown flag/.test(l.message));
    expect(warnings.map((w) => w.fields?.['flagKey'])).toEqual(['nope', 'nope2']);
  });

  it('records check events like the SDK: buffered, deduplicated, stored on flush()', async () => {
    const flag = fm.client.getFlag({ user: { id: 'u1' }, company: { id: 7 } }, 'with-config');
    expect(flag.isEnabled).toBe(true);
    expect(flag.isEnabled).toBe(true);
    void flag.config;
    expect(fm.client.isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(true);
    expect(await checks()).toEqual([]);
    await fm.client.flush();
    const rows = await checks();
    expect(rows.map((r) => [r.action, r.flagKey, r.userId, r.companyId])).toEqual([
      ['check', 'with-config', 'u1', '7'],
      ['check-config', 'with-config', 'u1', '7'],
      ['check', 'on-for-u1', 'u1', null],
    ]);
    expect(rows[1]!.evalResult).toEqual({ key: 'blue', payload: { color: 'blue' } });
    const [stats] = await fm.services.storage.stats.listEntityFlagStats(devId, 'company', '7');
    expect(stats).toMatchObject({ flagKey: 'with-config', checkCount: 2, exposureCount: 1 });
  });

  it('one context checked for several flags counts each once, and a changed user object is synced in the same second', async () => {
    const user = { id: 'u1', name: 'Ann' };
    const context = { user, company: { id: 'c1' } };
    expect(fm.client.getFlag(context, 'on-for-u1').isEnabled).toBe(true);
    expect(fm.client.isEnabled('on-for-u1', context)).toBe(true);
    expect(fm.client.isEnabled('with-config', context)).toBe(true);
    // Same ids, a new user object with other attributes: not the last call's objects, so its attributes are synced.
    expect(fm.client.isEnabled('with-config', { user: { id: 'u1', name: 'Bea' }, company: context.company })).toBe(true);
    await fm.client.flush();
    const rows = await checks();
    expect(rows.map((r) => [r.flagKey, r.userId, r.companyId])).toEqual([
      ['on-for-u1', 'u1', 'c1'],
      ['with-config', 'u1', 'c1'],
    ]);
    expect((await fm.services.storage.entities.get(devId, 'user', 'u1'))!.attributes).toEqual({ name: 'Bea' });
    expect(await fm.services.storage.entities.listCompanyUsers(devId, 'c1')).toEqual(['u1']);
  });

  it('getFlags returns every flag and records no checks; enableTracking: false writes nothing', async () => {
    const flags = fm.client.getFlags({ user: { id: 'u1' } });
    expect(Object.keys(flags).sort()).toEqual(['on-for-u1', 'with-config']);
    expect(flags['on-for-u1']!.isEnabled).toBe(true);
    expect(fm.client.getFlag({ user: { id: 'u9', plan: 'x' }, enableTracking: false }, 'on-for-u1').isEnabled).toBe(false);
    await fm.client.flush();
    expect(await checks()).toEqual([]);
    expect(await fm.services.storage.entities.get(devId, 'user', 'u9')).toBeUndefined();
  });

  it("syncs the context's user and company like the node SDK", async () => {
    fm.client.isEnabled('on-for-u1', { user: { id: 'u1', name: 'Ann' }, company: { id: 'c1', plan: 'pro' } });
    await fm.client.flush();
    expect((await fm.services.storage.entities.get(devId, 'user', 'u1'))!.attributes).toEqual({ name: 'Ann' });
    expect((await fm.services.storage.entities.get(devId, 'company', 'c1'))!.attributes).toEqual({ plan: 'pro' });
    expect(await fm.services.storage.entities.listCompanyUsers(devId, 'c1')).toEqual(['u1']);
  });

  it('track, updateUser and updateCompany resolve once stored; an event named like a flag is its track', async () => {
    await fm.client.track('u1', 'on-for-u1', { companyId: 5, attributes: { n: 1 } });
    await fm.client.updateUser(42, { attributes: { roles: ['a', 'b'] } });
    await fm.client.updateCompany('c2', { userId: 42, attributes: { tier: 'gold' } });
    const storage = fm.services.storage;
    expect((await storage.events.listTracks(devId, 10)).map((t) => [t.event, t.userId, t.companyId])).toEqual([['on-for-u1', 'u1', '5']]);
    expect((await storage.entities.get(devId, 'user', '42'))!.attributes).toEqual({ roles: ['a', 'b'] });
    expect(await storage.entities.listCompanyUsers(devId, 'c2')).toEqual(['42']);
    const [stats] = await storage.stats.listEntityFlagStats(devId, 'user', 'u1');
    expect(stats).toMatchObject({ flagKey: 'on-for-u1', trackCount: 1 });
    await expect(fm.client.track('', 'x')).rejects.toThrow(TypeError);
  });

  it('bindClient binds the context; flag.track() tracks for the bound user and company', async () => {
    const bound = fm.client.bindClient({ user: { id: 'u1' }, company: { id: 'c1' } });
    expect(bound.isEnabled('on-for-u1')).toBe(true);
    expect(bound.getFlag('on-for-u1').isEnabled).toBe(true);
    expect(Object.keys(bound.getFlags())).toHaveLength(2);
    await bound.getFlag('on-for-u1').track();
    await bound.track('custom');
    const other = bound.bindClient({ user: { id: 'u2' } });
    expect(other.isEnabled('on-for-u1')).toBe(false);
    expect(other.company).toEqual({ id: 'c1' });
    const tracks = await fm.services.storage.events.listTracks(devId, 10);
    expect(tracks.map((t) => [t.event, t.userId, t.companyId])).toEqual([
      ['on-for-u1', 'u1', 'c1'],
      ['custom', 'u1', 'c1'],
    ]);
  });

  it('withOverrides fixes results for host tests without touching the store', async () => {
    const before = await fm.services.storage.dump();
    const test = fm.client.withOverrides({ 'on-for-u1': false, brandNew: true, configured: { isEnabled: true, config: { key: 'v', payload: 1 } } });
    expect(test.isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(false);
    expect(test.isEnabled('brandNew')).toBe(true);
    expect(test.getFlag({}, 'configured').config).toEqual({ key: 'v', payload: 1 });
    expect(test.isEnabled('with-config', { user: { id: 'x', plan: 'p' } })).toBe(true);
    expect(Object.keys(test.getFlags({})).sort()).toEqual(['brandNew', 'configured', 'on-for-u1', 'with-config']);
    await test.track('u1', 'on-for-u1');
    await test.updateUser('u7', { attributes: { a: 1 } });
    await test.flush();
    await fm.client.flush();
    expect(await fm.services.storage.dump()).toEqual(before);
    // The original client is unchanged.
    expect(fm.client.isEnabled('on-for-u1', { user: { id: 'u1' }, enableTracking: false })).toBe(true);
  });

  it('hasFlag tells a served flag or an override from an unknown key, recording nothing', async () => {
    expect(fm.client.hasFlag('on-for-u1')).toBe(true);
    expect(fm.client.hasFlag('nope')).toBe(false);
    expect(fm.client.withOverrides({ nope: true }).hasFlag('nope')).toBe(true);
    await fm.client.flush();
    expect(await checks()).toEqual([]);
  });

  it('getFlagsRemote / getFlagRemote merge stored attributes as /features/evaluated does; the sync calls do not', async () => {
    const plan = { type: 'context' as const, field: 'user.plan', operator: 'IS' as const, values: ['pro'] };
    const tier = { type: 'context' as const, field: 'company.tier', operator: 'IS' as const, values: ['gold'] };
    await seedFlags(fm, fm.bootstrap!.appId, [
      { key: 'pro-only', rules: { [devId]: [plan] } },
      { key: 'gold-only', rules: { [devId]: [tier] } },
    ]);
    await fm.client.updateUser('u7', { attributes: { plan: 'pro' } });
    await fm.client.updateCompany('c7', { attributes: { tier: 'gold' } });
    expect(fm.client.isEnabled('pro-only', { user: { id: 'u7' } })).toBe(false);
    const remote = await fm.client.getFlagsRemote('u7', 'c7');
    expect(remote['pro-only']!.isEnabled).toBe(true);
    expect(remote['gold-only']!.isEnabled).toBe(true);
    // What is sent wins over what is stored.
    expect((await fm.client.getFlagRemote('pro-only', 'u7', undefined, { user: { plan: 'free' } })).isEnabled).toBe(false);
    const bound = fm.client.bindClient({ user: { id: 'u7' }, company: { id: 'c7' } });
    expect((await bound.getFlagRemote('gold-only')).isEnabled).toBe(true);
    expect((await bound.getFlagsRemote())['pro-only']!.isEnabled).toBe(true);
    expect((await fm.client.getFlagsRemote())['pro-only']!.isEnabled).toBe(false);
  });

  it('a missing or malformed context is the empty context, never an exception', () => {
    const c = fm.client as unknown as {
      isEnabled(k: string, ctx: unknown): boolean;
      getFlag(ctx: unknown, k: string): { isEnabled: boolean };
      getFlags(ctx?: unknown): Record<string, unknown>;
      bindClient(ctx: unknown): { getFlags(): Record<string, unknown>; bindClient(ctx: unknown): { isEnabled(k: string): boolean } };
    };
    for (const context of [undefined, null, 'u1', 42, []]) {
      expect(c.isEnabled('with-config', context)).toBe(true);
      expect(c.getFlag(context, 'on-for-u1').isEnabled).toBe(false);
      expect(Object.keys(c.getFlags(context)).sort()).toEqual(['on-for-u1', 'with-config']);
      expect(Object.keys(c.bindClient(context).getFlags()).length).toBe(2);
      expect(c.bindClient({ user: { id: 'u1' } }).bindClient(context).isEnabled('on-for-u1')).toBe(true);
    }
    const overridden = fm.client.withOverrides({ 'on-for-u1': null as unknown as boolean });
    expect(overridden.isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(true);
    expect(Object.keys(overridden.getFlags({}))).toContain('on-for-u1');
  });

  it('attributes JSON cannot hold fail that call alone, not the writes sharing its batch', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const results = await Promise.allSettled([
      fm.client.track('u1', 'ev', { attributes: { n: 10n } as unknown as Record<string, unknown> }),
      fm.client.updateUser('u2', { attributes: cyclic }),
      fm.client.track('u3', 'good'),
      fm.client.updateUser('u4', { attributes: { plan: 'pro' } }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
    expect(await fm.services.storage.entities.get(devId, 'user', 'u4')).toMatchObject({ attributes: { plan: 'pro' } });
    expect(await fm.services.storage.entities.get(devId, 'user', 'u2')).toBeUndefined();
  });

  it('close() stores the checks still buffered', async () => {
    fm.client.isEnabled('on-for-u1', { user: { id: 'u1' } });
    const storage = fm.services.storage;
    const seen: unknown[] = [];
    const original = storage.close.bind(storage);
    storage.close = async () => {
      seen.push(...(await storage.events.listChecks(devId, 10)));
      return original();
    };
    await fm.close();
    expect(seen).toHaveLength(1);
  });
});
