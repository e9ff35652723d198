import { createFlagmount, type Flagmount } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterEach, expect, it } from 'vitest';
import { seedFlags, userIs } from '../../../../test/http/runtime/support/seed.js';

const DAY = 86_400_000;
const START = Date.parse('2026-04-10T10:00:00.000Z');
let clock = START;
let fm: Flagmount | undefined;
afterEach(async () => {
  await fm?.close();
  fm = undefined;
});

/** The client reads the clock afresh after an event-loop turn. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

it('the in-process client counts exposures (checks answered true) per day beside its checks (issue 37)', async () => {
  clock = START;
  fm = await createFlagmount({ storage: memoryStorage(), bootstrap: true, now: () => new Date(clock) });
  const devId = fm.bootstrap!.environments.find((e) => e.name === 'Development')!.id;
  await seedFlags(fm, fm.bootstrap!.appId, [
    { key: 'on-for-u1', rules: { [devId]: [userIs('u1')] } },
    {
      key: 'with-config',
      rules: { [devId]: [{ type: 'constant', value: true }] },
      variants: { [devId]: [{ key: 'blue', payload: 1, filter: { type: 'constant', value: true } }] },
    },
  ]);
  await tick();
  const client = fm.client;
  // Day 1. on-for-u1: true for u1 (checked twice within the minute: counted once), false for u2 and u3.
  expect(client.isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(true);
  expect(client.isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(true);
  expect(client.isEnabled('on-for-u1', { user: { id: 'u2' } })).toBe(false);
  expect(client.isEnabled('on-for-u1', { user: { id: 'u3' } })).toBe(false);
  // with-config: an isEnabled read (an exposure), a config read (a check, not an exposure), an anonymous read (an exposure).
  const flag = client.getFlag({ user: { id: 'u1' } }, 'with-config');
  expect(flag.isEnabled).toBe(true);
  expect(flag.config.key).toBe('blue');
  expect(client.isEnabled('with-config', {})).toBe(true);
  // Day 2: u1 again (a new day, long past the dedupe minute), and a false answer for u2.
  clock += DAY;
  await tick();
  expect(client.isEnabled('on-for-u1', { user: { id: 'u1' } })).toBe(true);
  expect(client.isEnabled('on-for-u1', { user: { id: 'u4' } })).toBe(false);
  await client.flush();

  const day = (offset: number) => new Date(START + offset * DAY).toISOString().slice(0, 10);
  const rows = await fm.services.storage.stats.listFlagDailyStats([devId], day(0));
  expect(rows.map((r) => [r.flagKey, r.day, r.checkCount, r.exposureCount])).toEqual([
    ['on-for-u1', day(0), 3, 1],
    ['on-for-u1', day(1), 2, 1],
    ['with-config', day(0), 3, 2],
  ]);
  // The entity rows (rows 8/10) agree with the daily ones.
  const [u1] = await fm.services.storage.stats.listEntityFlagStats(devId, 'user', 'u1');
  expect(u1).toMatchObject({ flagKey: 'on-for-u1', checkCount: 2, exposureCount: 2 });
});
