import type { Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { app, at, environment, organization, seedBase } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { each, expectConflict, expectNotFound, shuffled } from '../util.js';

export async function checkEnvironments(storage: Storage): Promise<void> {
  await storage.organizations.insert(organization());
  await storage.apps.insert(app());
  await storage.apps.insert(app({ id: 'app_b' }));
  const repo = storage.environments;
  expect(await repo.get('env_missing'), 'environments.get of a missing id').toBeUndefined();
  expect(await repo.listAll(), 'environments.listAll of an empty store').toEqual([]);

  const rows = [
    environment({ id: 'env_c', order: 1 }),
    environment({ id: 'env_b', order: 0, isProduction: true, flagStateVersion: 7 }),
    environment({ id: 'env_a', order: 1 }),
    environment({ id: 'env_d', appId: 'app_b', order: 0 }),
    environment({ id: 'env_e', order: 2, createdAt: at(-5) }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));
  expect(await repo.get('env_b'), 'environments.get returns the inserted row (version included)').toEqual(rows[1]);
  expect((await repo.listByApp('app_a')).map((e) => e.id), 'environments.listByApp: by order, then id').toEqual([
    'env_b',
    'env_a',
    'env_c',
    'env_e',
  ]);
  expect(await repo.listByApp('app_missing'), 'environments.listByApp of an unknown app').toEqual([]);
  expect((await repo.listAll()).map((e) => e.id), 'environments.listAll: by app, then order, then id').toEqual([
    'env_b',
    'env_a',
    'env_c',
    'env_e',
    'env_d',
  ]);

  await expectConflict(repo.insert(environment({ id: 'env_a', publishableKey: 'pub_x', secretKey: 'sec_x' })), 'environments.insert duplicate id');
  expect(await repo.update('env_a', { name: 'Staging', order: 5, isProduction: true }), 'environments.update').toBe(true);
  expect(await repo.get('env_a'), 'environments.update changes only the patched fields').toEqual({
    ...rows[2],
    name: 'Staging',
    order: 5,
    isProduction: true,
  });
  expect(await repo.update('env_missing', { name: 'X' }), 'environments.update of a missing row').toBe(false);
}

export async function checkSdkKeys(storage: Storage): Promise<void> {
  await seedBase(storage);
  const repo = storage.environments;
  const other = environment({ id: 'env_b', publishableKey: 'pub_other_key_0123456789abcdef', secretKey: 'sec_other_key_0123456789abcdef' });
  await repo.insert(other);
  const first = environment();
  expect(await repo.getBySdkKey(first.publishableKey), 'getBySdkKey(publishable key)').toEqual(first);
  expect(await repo.getBySdkKey(first.secretKey), 'getBySdkKey(secret key)').toEqual(first);
  expect(await repo.getBySdkKey(other.secretKey), 'getBySdkKey finds the right environment').toEqual(other);
  expect(await repo.getBySdkKey('pub_unknown_key_0123456789abcd'), 'getBySdkKey of an unknown key').toBeUndefined();
  expect(await repo.getBySdkKey(first.secretKey.slice(0, -1)), 'getBySdkKey: a prefix is not a match').toBeUndefined();
  expect(await repo.getBySdkKey(first.secretKey.toUpperCase()), 'getBySdkKey is case-sensitive').toBeUndefined();
  expect(await repo.getBySdkKey(''), 'getBySdkKey of the empty string').toBeUndefined();

  await expectConflict(
    repo.insert(environment({ id: 'env_c', publishableKey: first.publishableKey, secretKey: 'sec_fresh_0123456789abcdefghij' })),
    'environments.insert with another environment’s publishable key',
  );
  await expectConflict(
    repo.insert(environment({ id: 'env_c', publishableKey: 'pub_fresh_0123456789abcdefghij', secretKey: other.secretKey })),
    'environments.insert with another environment’s secret key',
  );
  expect(await repo.get('env_c'), 'a rejected insert leaves nothing').toBeUndefined();
  await expectConflict(
    repo.update('env_b', { secretKey: first.secretKey }),
    'environments.update (key rotation) to a key another environment holds',
  );
  expect(await repo.get('env_b'), 'a rejected update changes nothing').toEqual(other);

  // Rotation: the new key finds the environment, the old one no longer does.
  expect(await repo.update('env_b', { secretKey: 'sec_rotated_0123456789abcdefghi' }), 'rotate the secret key').toBe(true);
  expect((await repo.getBySdkKey('sec_rotated_0123456789abcdefghi'))?.id, 'the rotated key resolves').toBe('env_b');
  expect(await repo.getBySdkKey(other.secretKey), 'the old key no longer resolves').toBeUndefined();
  await repo.insert(environment({ id: 'env_c', publishableKey: 'pub_c_0123456789abcdefghijklmn', secretKey: other.secretKey }));
  expect((await repo.getBySdkKey(other.secretKey))?.id, 'a retired key may be reused').toBe('env_c');
}

export async function checkBumpVersion(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b', flagStateVersion: 41 }));
  const repo = storage.environments;
  expect(await repo.bumpVersion('env_a'), 'bumpVersion resolves the new version').toBe(1);
  expect(await repo.bumpVersion('env_a'), 'bumpVersion adds exactly 1').toBe(2);
  expect((await repo.get('env_a'))?.flagStateVersion, 'the bumped version is stored').toBe(2);
  expect(await repo.bumpVersion('env_b'), 'bumpVersion starts from the stored version').toBe(42);
  expect((await repo.get('env_a'))?.flagStateVersion, 'bumpVersion touches only its environment').toBe(2);

  expect(await repo.update('env_a', { name: 'Renamed' }), 'update after bump').toBe(true);
  expect((await repo.get('env_a'))?.flagStateVersion, 'update leaves flagStateVersion alone').toBe(2);
  await expectNotFound(repo.bumpVersion('env_missing'), 'bumpVersion of a missing environment');
  expect(await repo.get('env_missing'), 'bumpVersion of a missing environment creates nothing').toBeUndefined();

  const seen = await storage.transaction(async (tx) => {
    const v = await tx.environments.bumpVersion('env_a');
    return { v, read: (await tx.environments.get('env_a'))?.flagStateVersion };
  });
  expect(seen, 'bumpVersion in a transaction: the transaction reads its own bump').toEqual({ v: 3, read: 3 });
  expect((await repo.get('env_a'))?.flagStateVersion, 'a committed bump is kept').toBe(3);
  await expectNotFound(
    storage.transaction((tx) => tx.environments.bumpVersion('env_missing')),
    'a NotFoundError inside a transaction rejects the transaction with it',
  );
}

export const environmentChecks: CheckGroup = {
  name: 'environments',
  checks: [
    { name: 'get, listByApp and listAll order, insert conflict, update', run: checkEnvironments },
    { name: 'getBySdkKey exact match; SDK keys unique on insert and on rotation', run: checkSdkKeys },
    { name: 'bumpVersion adds exactly 1, NotFoundError when missing', run: checkBumpVersion },
  ],
};
