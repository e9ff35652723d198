import type { Storage, TransactionOptions } from '@flagmount/core';
import { expect } from 'vitest';
import { day, flagDailyStats, seedBase, trackEvent } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { rejection, sleep } from '../util.js';

const APPEND: TransactionOptions = { appendOnly: true };

/** One ingestion batch: a new event row and a counter increment, as the group-commit writer writes them. */
async function ingest(storage: Storage, id: string, hold = 0): Promise<void> {
  await storage.transaction(async (tx) => {
    await tx.events.insertTracks([trackEvent({ id })]);
    await tx.stats.mergeFlagDailyStats([flagDailyStats({ trackCount: 1 })]);
    if (hold) await sleep(hold);
  }, APPEND);
}

const trackCount = async (storage: Storage) =>
  (await storage.stats.listFlagDailyStats(['env_a'], day(0))).find((row) => row.flagKey === 'key_flag_a')?.trackCount ?? 0;

export async function checkAppendOnlyAtomic(storage: Storage): Promise<void> {
  await seedBase(storage);
  await ingest(storage, 'trk_1');
  const before = await storage.dump();
  const failure = new Error('rolled back on purpose');
  const error = await rejection(
    storage.transaction(async (tx) => {
      await tx.events.insertTracks([trackEvent({ id: 'trk_2' })]);
      await tx.stats.mergeFlagDailyStats([flagDailyStats({ trackCount: 1 })]);
      throw failure;
    }, APPEND),
    'an append-only transaction whose fn rejects',
  );
  expect(error, 'transaction() rejects with the error fn rejected with').toBe(failure);
  expect(await storage.dump(), 'a rolled-back append-only transaction left writes behind').toEqual(before);
  expect(await trackCount(storage), 'the committed append-only transaction was kept').toBe(1);
}

export async function checkAppendOnlyConcurrentCounters(storage: Storage): Promise<void> {
  await seedBase(storage);
  const n = 20;
  await Promise.all(Array.from({ length: n }, (_, i) => ingest(storage, `trk_${i}`, i % 3)));
  expect(await trackCount(storage), 'concurrent append-only transactions lost a counter increment').toBe(n);
  expect(await storage.events.listTracks('env_a', 100), 'concurrent append-only transactions lost a row').toHaveLength(n);
}

/** Ordinary transactions read before they write: none may run while an append-only one is open, or the other way. */
export async function checkOrdinaryRunsAlone(storage: Storage): Promise<void> {
  await seedBase(storage);
  const open: Array<'append' | 'ordinary'> = [];
  const overlaps: string[] = [];
  const enter = (kind: 'append' | 'ordinary') => {
    if (open.some((other) => other === 'ordinary' || kind === 'ordinary')) overlaps.push(`${kind} alongside ${open.join(',')}`);
    open.push(kind);
  };
  const leave = (kind: 'append' | 'ordinary') => open.splice(open.indexOf(kind), 1);
  const append = (i: number) =>
    storage.transaction(async (tx) => {
      enter('append');
      await tx.events.insertTracks([trackEvent({ id: `trk_${i}` })]);
      await sleep(10);
      leave('append');
    }, APPEND);
  const ordinary = () =>
    storage.transaction(async (tx) => {
      enter('ordinary');
      await tx.environments.bumpVersion('env_a');
      await sleep(10);
      leave('ordinary');
    });
  await Promise.all([append(1), append(2), ordinary(), append(3), ordinary(), append(4)]);
  expect(overlaps, 'an ordinary transaction ran while another transaction was open').toEqual([]);
  expect((await storage.environments.get('env_a'))?.flagStateVersion).toBe(2);
}

/** A store that declares `appendConcurrency` above 1 must really run that many append-only transactions at once. */
export async function checkAppendConcurrency(storage: Storage): Promise<void> {
  const slots = storage.appendConcurrency ?? 1;
  expect(Number.isInteger(slots) && slots >= 1, 'appendConcurrency is a positive integer').toBe(true);
  if (slots === 1) return;
  await seedBase(storage);
  let started = 0;
  let allStarted!: () => void;
  const together = new Promise<void>((resolve) => (allStarted = resolve));
  const results = await Promise.all(
    Array.from({ length: slots }, (_, i) =>
      storage.transaction(async (tx) => {
        await tx.events.insertTracks([trackEvent({ id: `trk_${i}` })]);
        if (++started === slots) allStarted();
        // Serialised transactions would wait here for each other: give up after a while instead of hanging.
        return Promise.race([together.then(() => true), sleep(3000).then(() => false)]);
      }, APPEND),
    ),
  );
  expect(results.every(Boolean), `${slots} append-only transactions were not open at the same time`).toBe(true);
}

export const appendOnlyChecks: CheckGroup = {
  name: 'append-only transactions',
  checks: [
    { name: 'an append-only transaction commits or rolls back as a whole', run: checkAppendOnlyAtomic },
    { name: 'concurrent append-only transactions lose no row and no counter increment', run: checkAppendOnlyConcurrentCounters },
    { name: 'an ordinary transaction never runs alongside another transaction', run: checkOrdinaryRunsAlone },
    { name: 'appendConcurrency append-only transactions can be open at once', run: checkAppendConcurrency },
  ],
};
