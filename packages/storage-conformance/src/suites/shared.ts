import type { Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { environment, flag, organization, seedBase } from '../fixtures.js';
import type { CheckGroup, StorageFactory } from '../types.js';
import { rejection, waitFor } from '../util.js';
import { publishMarker, record } from './notices.js';

async function openSecond(storage: Storage, factory: StorageFactory): Promise<Storage> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
  const other = await factory.second!(storage);
  await other.migrate();
  return other;
}

export async function checkSecondHandleSharesData(storage: Storage, factory: StorageFactory): Promise<void> {
  const other = await openSecond(storage, factory);
  await storage.flags.insert(flag());
  expect(await other.flags.get('flag_a'), 'a write through one handle is read through the other').toEqual(flag());
  await other.transaction((tx) => tx.organizations.insert(organization({ id: 'org_b' })));
  expect(await storage.organizations.get('org_b'), 'and the other way round').toBeDefined();
}

export async function checkSecondHandleNotices(storage: Storage, factory: StorageFactory): Promise<void> {
  const other = await openSecond(storage, factory);
  const { seen, off } = record(other);
  await rejection(
    storage.transaction(async (tx) => {
      tx.publishChange('env_a', 99);
      throw new Error('roll back');
    }),
    'a rolled-back transaction on the first handle',
  );
  const version = await storage.transaction(async (tx) => {
    const v = await tx.environments.bumpVersion('env_a');
    tx.publishChange('env_a', v);
    return v;
  });
  await waitFor(() => seen.length >= 1, 'a notice committed through one handle never reached the other handle’s listener');
  await storage.publishChange('env_a', 50);
  await waitFor(() => seen.length >= 2, 'storage.publishChange never reached the other handle’s listener');
  const marker = await publishMarker(storage, seen);
  expect(seen, 'the other handle gets committed notices, in order, and no rolled-back one').toEqual([
    { envId: 'env_a', version },
    { envId: 'env_a', version: 50 },
    marker,
  ]);
  off();
}

export async function checkBumpVersionAcrossHandles(storage: Storage, factory: StorageFactory): Promise<void> {
  const other = await openSecond(storage, factory);
  const n = 25;
  const results = await Promise.all(
    Array.from({ length: 2 * n }, (_, i) =>
      (i % 2 === 0 ? storage : other).transaction((tx) => tx.environments.bumpVersion('env_a')),
    ),
  );
  expect((await other.environments.get('env_a'))?.flagStateVersion, 'bumpVersion lost an increment across two handles').toBe(2 * n);
  expect([...results].sort((a, b) => a - b), 'each bump across handles resolves its own new value').toEqual(
    Array.from({ length: 2 * n }, (_, i) => i + 1),
  );
}

export const sharedChecks: CheckGroup = {
  name: 'shared database (second handle)',
  checks: [
    { name: 'two handles see each other’s writes', run: checkSecondHandleSharesData, requires: 'second' },
    { name: 'notices reach the other handle after commit, not on rollback', run: checkSecondHandleNotices, requires: 'second' },
    { name: 'bumpVersion loses nothing across handles', run: checkBumpVersionAcrossHandles, requires: 'second' },
  ],
};
