import type { ChangeNotice, Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { environment, seedBase } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { rejection, sleep, waitFor } from '../util.js';
import { settle } from './transactions.js';

export function record(storage: Storage): { seen: ChangeNotice[]; off: () => void } {
  const seen: ChangeNotice[] = [];
  const off = storage.onChange((notice) => seen.push({ envId: notice.envId, version: notice.version }));
  return { seen, off };
}

/** Commits a bump of env_b with its notice, and waits until `seen` holds it: every earlier notice is in by then. */
export async function publishMarker(storage: Storage, seen: ChangeNotice[]): Promise<ChangeNotice> {
  const version = await storage.transaction(async (tx) => {
    const v = await tx.environments.bumpVersion('env_b');
    tx.publishChange('env_b', v);
    return v;
  });
  const marker = { envId: 'env_b', version };
  await waitFor(() => seen.some((n) => n.envId === marker.envId && n.version === marker.version), 'the marker notice never arrived');
  return marker;
}

async function seedEnvs(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
}

export async function checkNoticeAfterCommit(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const seen: ChangeNotice[] = [];
  const readsOnNotice: Array<ReturnType<typeof settle<number | undefined>>> = [];
  const off = storage.onChange((notice) => {
    seen.push({ envId: notice.envId, version: notice.version });
    // What a listener reads in reaction must already be committed.
    readsOnNotice.push(settle(storage.environments.get(notice.envId).then((env) => env?.flagStateVersion)));
  });
  let seenInside = -1;
  await storage.transaction(async (tx) => {
    const v = await tx.environments.bumpVersion('env_a');
    tx.publishChange('env_a', v);
    await sleep(30);
    seenInside = seen.length;
  });
  expect(seenInside, 'a notice reached a listener before its transaction committed').toBe(0);
  await waitFor(() => seen.length >= 1, 'the notice of a committed transaction never arrived');
  expect(seen[0], 'the notice carries envId and version').toEqual({ envId: 'env_a', version: 1 });
  expect(await readsOnNotice[0], 'a listener reading on the notice saw uncommitted state').toEqual({ ok: true, value: 1 });
  const marker = await publishMarker(storage, seen);
  expect(seen, 'each published notice arrives once').toEqual([{ envId: 'env_a', version: 1 }, marker]);
  off();
}

export async function checkNoticeDroppedOnRollback(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const { seen, off } = record(storage);
  await rejection(
    storage.transaction(async (tx) => {
      const v = await tx.environments.bumpVersion('env_a');
      tx.publishChange('env_a', v);
      await sleep(5);
      throw new Error('roll back');
    }),
    'a transaction that publishes and then fails',
  );
  const marker = await publishMarker(storage, seen);
  expect(seen, 'a notice of a rolled-back transaction was delivered').toEqual([marker]);
  off();
}

export async function checkNoticeOrder(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const { seen, off } = record(storage);
  await storage.transaction(async (tx) => {
    tx.publishChange('env_a', 5);
    tx.publishChange('env_b', 3);
    tx.publishChange('env_a', 6);
  });
  await waitFor(() => seen.length >= 3, 'not every notice of the transaction arrived');
  expect(seen, 'notices of one transaction arrive in the order they were published').toEqual([
    { envId: 'env_a', version: 5 },
    { envId: 'env_b', version: 3 },
    { envId: 'env_a', version: 6 },
  ]);
  off();
}

export async function checkPublishOutsideTransaction(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const first = record(storage);
  const second = record(storage);
  await storage.publishChange('env_a', 9);
  await waitFor(() => first.seen.length >= 1 && second.seen.length >= 1, 'a notice published outside a transaction never arrived');
  expect(first.seen, 'storage.publishChange reaches every listener').toEqual([{ envId: 'env_a', version: 9 }]);
  expect(second.seen, 'storage.publishChange reaches every listener').toEqual([{ envId: 'env_a', version: 9 }]);
  first.off();
  second.off();
}

export async function checkUnsubscribe(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const gone = record(storage);
  const staying = record(storage);
  gone.off();
  gone.off();
  await storage.publishChange('env_a', 1);
  await publishMarker(storage, staying.seen);
  expect(gone.seen, 'a listener got notices after unsubscribing').toEqual([]);
  staying.off();
}

export async function checkThrowingListener(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const off = storage.onChange(() => {
    throw new Error('listener failure');
  });
  const { seen, off: offOther } = record(storage);
  const version = await storage.transaction(async (tx) => {
    const v = await tx.environments.bumpVersion('env_a');
    tx.publishChange('env_a', v);
    return v;
  });
  expect(version, 'a throwing listener does not fail the committing transaction').toBe(1);
  await waitFor(() => seen.length >= 1, 'a throwing listener kept the notice from the other listeners');
  expect((await storage.environments.get('env_a'))?.flagStateVersion, 'the commit stands').toBe(1);
  off();
  offOther();
}

export const noticeChecks: CheckGroup = {
  name: 'change notices',
  checks: [
    { name: 'a notice published in a transaction arrives after commit only, once', run: checkNoticeAfterCommit },
    { name: 'a notice of a rolled-back transaction is dropped', run: checkNoticeDroppedOnRollback },
    { name: 'notices of one transaction arrive in publish order', run: checkNoticeOrder },
    { name: 'storage.publishChange reaches every listener', run: checkPublishOutsideTransaction },
    { name: 'the function onChange returns unsubscribes', run: checkUnsubscribe },
    { name: 'a throwing listener neither fails the commit nor silences others', run: checkThrowingListener },
  ],
};
