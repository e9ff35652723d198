import { createFlagmount, type Flagmount } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { always, seedFlags, userIs } from '../../../../test/http/runtime/support/seed.js';

// The in-process client's aggregation (issue 35): what its flat caches remember and what a flush stores.
const START = Date.parse('2026-11-28T10:00:00.000Z');
let clock = START;
let fm: Flagmount;
let devId: string;

/** Moves the clock; the await ends the synchronous stretch in which the client reuses its last reading. */
async function advance(ms: number): Promise<void> {
  clock += ms;
  await Promise.resolve();
}

const FLAGS = ['f0', 'f1', 'f2', 'f3', 'f4'];

beforeEach(async () => {
  clock = START;
  fm = await createFlagmount({ storage: memoryStorage(), bootstrap: true, now: () => new Date(clock) });
  devId = fm.bootstrap!.environments.find((e) => e.name === 'Development')!.id;
  await seedFlags(fm, fm.bootstrap!.appId, [
    { key: 'on-for-u1', rules: { [devId]: [userIs('u1')] } },
    ...FLAGS.map((key) => ({ key, rules: { [devId]: [always] } })),
    {
      key: 'with-config',
      rules: { [devId]: [always] },
      variants: { [devId]: [{ key: 'blue', payload: { color: 'blue' }, filter: always }] },
    },
  ]);
});

afterEach(async () => {
  await fm.close();
});

const statsOf = async (type: 'user' | 'company', id: string) =>
  Object.fromEntries((await fm.services.storage.stats.listEntityFlagStats(devId, type, id)).map((row) => [row.flagKey, row]));
const daily = async (flagKey: string) =>
  (await fm.services.storage.stats.listFlagDailyStats([devId], '2026-11-01')).filter((row) => row.flagKey === flagKey);

describe('in-process analytics: counts per entity and flag', () => {
  it('counts a check once a minute per user and company, with exposures and their first/last times', async () => {
    const context = { user: { id: 'u1' }, company: { id: 'c1' } };
    for (let i = 0; i < 3; i++) expect(fm.client.isEnabled('on-for-u1', context)).toBe(true);
    await advance(30_000);
    fm.client.isEnabled('on-for-u1', { user: { id: 'u1' }, company: { id: 'c1' } });
    await advance(31_000);
    fm.client.isEnabled('on-for-u1', context);
    await fm.client.flush();
    const user = (await statsOf('user', 'u1'))['on-for-u1']!;
    expect(user).toMatchObject({ checkCount: 2, exposureCount: 2, firstExposureAt: '2026-11-28T10:00:00.000Z' });
    expect(user.lastExposureAt).toBe('2026-11-28T10:01:01.000Z');
    expect(user.lastCheckAt).toBe('2026-11-28T10:01:01.000Z');
    expect((await statsOf('company', 'c1'))['on-for-u1']).toMatchObject({ checkCount: 2, exposureCount: 2 });
    expect(await daily('on-for-u1')).toMatchObject([{ day: '2026-11-28', checkCount: 2 }]);
  });

  it('a check that is off counts without an exposure; a changed result or company within the minute counts again', async () => {
    fm.client.isEnabled('on-for-u1', { user: { id: 'u2' } });
    fm.client.isEnabled('on-for-u1', { user: { id: 'u2' }, company: { id: 'c9' } });
    fm.client.isEnabled('on-for-u1', { user: { id: 'u2' }, company: { id: 'c9' } });
    await fm.client.flush();
    expect((await statsOf('user', 'u2'))['on-for-u1']).toMatchObject({ checkCount: 2, exposureCount: 0, firstExposureAt: null, lastExposureAt: null });
  });

  it('keeps each of a user’s flags apart, and a config check beside the flag check in one row per flag', async () => {
    const context = { user: { id: 'u3' } };
    for (let round = 0; round < 3; round++) {
      for (const key of FLAGS) expect(fm.client.isEnabled(key, context)).toBe(true);
      const flag = fm.client.getFlag(context, 'with-config');
      expect(flag.isEnabled).toBe(true);
      expect(flag.config.key).toBe('blue');
    }
    await fm.client.flush();
    const stats = await statsOf('user', 'u3');
    for (const key of FLAGS) expect(stats[key]).toMatchObject({ checkCount: 1, exposureCount: 1 });
    // The flag check (true) and the config check (result 'blue', no exposure): two checks, one exposure.
    expect(stats['with-config']).toMatchObject({ checkCount: 2, exposureCount: 1 });
    expect(fm.stats().client.checksCounted).toBe(FLAGS.length + 2);
  });

  it('counts a company-only context for the company, and an anonymous one only per day', async () => {
    fm.client.isEnabled('f0', { company: { id: 'c2' } });
    fm.client.isEnabled('f0', { company: { id: 'c2' } });
    fm.client.isEnabled('f0', {});
    fm.client.isEnabled('f0', { other: { plan: 'x' } });
    await fm.client.flush();
    expect((await statsOf('company', 'c2'))['f0']).toMatchObject({ checkCount: 1 });
    // The anonymous context is one owner: counted once in the minute.
    expect(await daily('f0')).toMatchObject([{ checkCount: 2 }]);
  });

  it('stores what every flush counted: the same pair in two flushes adds up', async () => {
    fm.client.isEnabled('f1', { user: { id: 'u4' } });
    await fm.client.flush();
    await advance(61_000);
    fm.client.isEnabled('f1', { user: { id: 'u4' } });
    await fm.client.flush();
    expect((await statsOf('user', 'u4'))['f1']).toMatchObject({ checkCount: 2, exposureCount: 1 + 1 });
  });
});

describe('in-process analytics: the caches as they grow and evict', () => {
  it('still knows every user after growing: a second pass within the minute counts nothing', async () => {
    const users = Array.from({ length: 5_000 }, (_, i) => ({ user: { id: `g${i}` } }));
    for (const context of users) fm.client.isEnabled('f2', context);
    for (const context of users) fm.client.isEnabled('f3', context);
    const counted = fm.stats().client.checksCounted;
    expect(counted).toBe(10_000);
    await advance(1_000);
    for (const context of users) {
      fm.client.isEnabled('f2', { user: { id: context.user.id } });
      fm.client.isEnabled('f3', context);
    }
    expect(fm.stats().client.checksCounted).toBe(counted);
    await fm.client.flush();
    expect((await statsOf('user', 'g4999'))).toMatchObject({ f2: { checkCount: 1 }, f3: { checkCount: 1 } });
  });

  it('a flood of users beyond the caches forgets the oldest and loses no count', async () => {
    const total = 180_000;
    for (let i = 0; i < total; i++) {
      fm.client.isEnabled('f4', { user: { id: `flood-${i}` } });
      if (i % 40_000 === 39_999) await fm.client.flush();
    }
    const stats = fm.stats().client;
    expect(stats.checksCounted + stats.checksDropped).toBe(total);
    // The first users were forgotten by now (the least recently met of their set): checked again, they count again.
    for (let i = 0; i < 1_000; i++) fm.client.isEnabled('f4', { user: { id: `flood-${i}` } });
    const again = fm.stats().client.checksCounted - stats.checksCounted;
    expect(again).toBeGreaterThan(500);
    await fm.client.flush();
    expect((await daily('f4'))[0]!.checkCount).toBe(stats.checksCounted + again);
    expect((await statsOf('user', 'flood-999'))['f4']!.checkCount).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('syncs attributes once a minute, again at once when they change, and not for a new object with the same ones', async () => {
    const pending = () => fm.stats().client.pendingRows;
    fm.client.isEnabled('f0', { user: { id: 'u5', plan: 'pro' } });
    const afterFirst = pending();
    fm.client.isEnabled('f1', { user: { id: 'u5', plan: 'pro' } });
    // A second flag: rows of counts for the user and for the flag's day, and the raw check kept for the recent
    // checks; no new attributes row.
    expect(pending()).toBe(afterFirst + 3);
    fm.client.isEnabled('f1', { user: { id: 'u5', plan: 'enterprise' } });
    await fm.client.flush();
    expect((await fm.services.storage.entities.get(devId, 'user', 'u5'))!.attributes).toEqual({ plan: 'enterprise' });
  });
});

describe('in-process analytics: getFlag syncs its context once, with the read', () => {
  const rows = () => fm.stats().client.pendingRows;
  const entity = (id: string) => fm.services.storage.entities.get(devId, 'user', id);

  it('a getFlag whose flag is read queues what isEnabled queues: one sync, one check', async () => {
    fm.client.isEnabled('f0', { user: { id: 'base', plan: 'pro' } });
    const perCheck = rows();
    await fm.client.flush();
    expect(fm.client.getFlag({ user: { id: 'u6', plan: 'pro' } }, 'f0').isEnabled).toBe(true);
    expect(rows()).toBe(perCheck);
    await fm.client.flush();
    expect((await entity('u6'))!.attributes).toEqual({ plan: 'pro' });
    expect((await statsOf('user', 'u6'))['f0']).toMatchObject({ checkCount: 1, exposureCount: 1 });
  });

  it('a flag never read still syncs its user: by the end of the synchronous stretch, or on flush', async () => {
    fm.client.getFlag({ user: { id: 'u7', plan: 'pro' } }, 'f0');
    fm.client.getFlag({ user: { id: 'u8', plan: 'free' } }, 'f1');
    // The second context synced the first at once; the second waits for the stretch to end.
    expect(rows()).toBe(1);
    await Promise.resolve();
    expect(rows()).toBe(2);
    fm.client.getFlag({ user: { id: 'u9' } }, 'f2');
    await fm.client.flush();
    expect((await entity('u7'))!.attributes).toEqual({ plan: 'pro' });
    expect((await entity('u8'))!.attributes).toEqual({ plan: 'free' });
    expect(await entity('u9')).toBeDefined();
    expect(await statsOf('user', 'u7')).toEqual({});
  });

  it('a context whose attributes throw when read is not synced, is logged, and never throws into the host', async () => {
    const warnings: unknown[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (...args: unknown[]) => void warnings.push(args) };
    const quiet = await createFlagmount({ storage: memoryStorage(), bootstrap: true, logger });
    await seedFlags(quiet, quiet.bootstrap!.appId, [{ key: 'x', rules: {} }]);
    const user = { id: 'u10' } as Record<string, unknown>;
    Object.defineProperty(user, 'plan', { enumerable: true, get: () => { throw new Error('no plan'); } });
    expect(quiet.client.getFlag({ user: user as { id: string } }, 'x').key).toBe('x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toContainEqual(['flagmount: a context could not be synced', { error: new Error('no plan') }]);
    expect(quiet.stats().client.pendingRows).toBe(0);
    await quiet.close();
  });
});
