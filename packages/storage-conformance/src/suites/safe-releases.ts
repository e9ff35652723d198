import type { ScheduleRecord, Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { at, entity, environment, seedBase, targeting } from '../fixtures.js';
import type { CheckGroup, StorageFactory } from '../types.js';
import { each, expectConflict, shuffled } from '../util.js';

/** A schedule row: a pending change of flag_a in env_a. */
export function schedule(o: Partial<ScheduleRecord> = {}): ScheduleRecord {
  return structuredClone({
    id: 'sched_a',
    orgId: 'org_a',
    appId: 'app_a',
    envId: 'env_a',
    flagId: 'flag_a',
    flagKey: 'flag-a',
    at: at(10),
    status: 'pending',
    targeting: { rules: [{ filter: { type: 'constant', value: true } }], prerequisites: [{ flagKey: 'b', isEnabled: false }] },
    createdBy: 'key_a',
    createdAt: at(0),
    appliedAt: null,
    flagStateVersion: null,
    reason: null,
    ...o,
  } satisfies ScheduleRecord);
}

export async function checkSchedules(storage: Storage): Promise<void> {
  const repo = storage.schedules;
  expect(await repo.get('sched_missing'), 'schedules.get of a missing id').toBeUndefined();
  const rows = [
    schedule({ id: 'sched_c', at: at(5) }),
    schedule({ id: 'sched_a', at: at(10) }),
    schedule({ id: 'sched_b', at: at(5), envId: 'env_b' }),
    schedule({ id: 'sched_d', at: at(1), status: 'cancelled', reason: 'Cancelled by key_a' }),
    schedule({ id: 'sched_e', at: at(3), flagId: 'flag_b' }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));
  expect(await repo.get('sched_a'), 'schedules.get returns the row, targeting included').toEqual(rows[1]);
  await expectConflict(repo.insert(schedule({ id: 'sched_a', at: at(99) })), 'schedules.insert duplicate id');
  expect((await repo.listByFlag('flag_a')).map((s) => s.id), 'schedules.listByFlag: by at, then id').toEqual(['sched_d', 'sched_b', 'sched_c', 'sched_a']);
  expect((await repo.listByFlag('flag_a', 'env_a')).map((s) => s.id), 'schedules.listByFlag of one environment').toEqual(['sched_d', 'sched_c', 'sched_a']);
  expect(await repo.listByFlag('flag_missing'), 'schedules.listByFlag of an unknown flag').toEqual([]);

  expect((await repo.listDue(at(5), 10)).map((s) => s.id), 'listDue: pending with at ≤ now (inclusive), by at then id').toEqual(['sched_e', 'sched_b', 'sched_c']);
  expect((await repo.listDue(at(5), 2)).map((s) => s.id), 'listDue keeps to its limit').toEqual(['sched_e', 'sched_b']);
  expect(await repo.listDue(at(0), 10), 'listDue before anything is due').toEqual([]);

  const applied = { appliedAt: at(6), flagStateVersion: 7, reason: null };
  expect(await repo.settle('sched_c', 'applied', applied), 'settle of a pending schedule').toBe(true);
  expect(await repo.get('sched_c'), 'settle writes the status and the patch, nothing else').toEqual({ ...rows[0], status: 'applied', ...applied });
  expect(await repo.settle('sched_c', 'cancelled', { appliedAt: null, flagStateVersion: null, reason: 'late' }), 'settle of a settled schedule').toBe(false);
  expect((await repo.get('sched_c'))?.status, 'a refused settle changes nothing').toBe('applied');
  expect(await repo.settle('sched_d', 'applied', applied), 'a cancelled schedule is not pending').toBe(false);
  expect(await repo.settle('sched_missing', 'failed', { appliedAt: null, flagStateVersion: null, reason: 'x' }), 'settle of a missing id').toBe(false);
  expect((await repo.listDue(at(5), 10)).map((s) => s.id), 'a settled schedule is no longer due').toEqual(['sched_e', 'sched_b']);
}

/** Two handles on one database (two processes) settle the same schedule at once: exactly one of them wins. */
export async function checkScheduleSettleAcrossHandles(storage: Storage, factory: StorageFactory): Promise<void> {
  const other = await factory.second!(storage);
  await other.migrate();
  await storage.schedules.insert(schedule());
  const claims = await Promise.all(
    [storage, other, storage, other].map((s, i) =>
      s.transaction((tx) => tx.schedules.settle('sched_a', 'applied', { appliedAt: at(11), flagStateVersion: i, reason: null })),
    ),
  );
  expect(claims.filter(Boolean), 'exactly one of concurrent settles wins').toHaveLength(1);
}

export async function checkTargetingPrerequisites(storage: Storage): Promise<void> {
  await seedBase(storage);
  const without = targeting();
  await storage.targeting.put(without);
  expect(await storage.targeting.get('flag_a', 'env_a'), 'targeting without prerequisites reads back without the field').toEqual(without);
  expect('prerequisites' in (await storage.targeting.get('flag_a', 'env_a'))!, 'no prerequisites field at all').toBe(false);
  const gated = targeting({ version: 2, prerequisites: [{ flagKey: 'flag-b', isEnabled: true }, { flagKey: 'flag-c', isEnabled: false }] });
  await storage.targeting.put(gated);
  expect(await storage.targeting.get('flag_a', 'env_a'), 'prerequisites round trip in order').toEqual(gated);
  expect(await storage.targeting.listByEnv('env_a'), 'and in listByEnv').toEqual([gated]);
  await storage.targeting.put(without);
  expect(await storage.targeting.get('flag_a', 'env_a'), 'a put without prerequisites removes them').toEqual(without);
}

export async function checkEntityPages(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
  const ids = ['u_10', 'u_2', 'U_3', 'u_1', 'u_b', 'u_a', 'u_é'];
  await each(shuffled(ids), (id) => storage.entities.put(entity({ id })));
  await storage.entities.put(entity({ id: 'c_1', type: 'company' }));
  await storage.entities.put(entity({ id: 'u_0', envId: 'env_b' }));
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const walked: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await storage.entities.listAttributesPage('env_a', 'user', after, 3);
    expect(page.length, 'listAttributesPage keeps to its limit').toBeLessThanOrEqual(3);
    walked.push(...page.map((e) => e.id));
    if (page.length < 3) break;
    after = page[page.length - 1]!.id;
  }
  expect(walked, 'listAttributesPage walks one type of one environment by id (code units), each once').toEqual(sorted);
  expect((await storage.entities.listAttributesPage('env_a', 'user', undefined, 1))[0], 'listAttributesPage returns id and attributes').toEqual({ id: sorted[0], attributes: entity().attributes });
  expect(await storage.entities.listAttributesPage('env_a', 'user', sorted.at(-1), 10), 'past the last id').toEqual([]);
  expect((await storage.entities.listAttributesPage('env_a', 'company', undefined, 10)).map((e) => e.id), 'companies apart').toEqual(['c_1']);
}

export const safeReleaseChecks: CheckGroup = {
  name: 'schedules, prerequisites, entity pages',
  checks: [
    { name: 'schedules: get, insert conflict, listByFlag and listDue order, settle only from pending', run: checkSchedules },
    { name: 'schedules: concurrent settles from two handles, one wins', run: checkScheduleSettleAcrossHandles, requires: 'second' },
    { name: 'targeting: prerequisites round trip, absent when none', run: checkTargetingPrerequisites },
    { name: 'entities: listAttributesPage walks by id in keyset pages', run: checkEntityPages },
  ],
};
