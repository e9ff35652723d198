import type { Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { entity, organization, sampleAttributes, seedBase, seedWorld, segment, targeting, flag } from '../fixtures.js';
import type { CheckGroup, StorageFactory } from '../types.js';
import { rejection, sleep } from '../util.js';
import { worldWrites } from '../writes.js';

export async function checkMigrateIsIdempotent(storage: Storage): Promise<void> {
  await seedWorld(storage);
  const before = await storage.dump();
  await storage.migrate();
  await Promise.all([storage.migrate(), storage.migrate()]);
  expect(await storage.dump(), 'migrate() on a migrated store changed its data').toEqual(before);
  await storage.organizations.insert(organization({ id: 'org_c' }));
  expect(await storage.organizations.get('org_c'), 'the store still works after repeated migrate()').toBeDefined();
}

export async function checkDump(storage: Storage): Promise<void> {
  await seedWorld(storage);
  const first = await storage.dump();
  for (const [table, rows] of Object.entries(first)) expect(Array.isArray(rows), `dump().${table} is an array`).toBe(true);
  expect(await storage.dump(), 'two dumps of unchanged data are equal (stable order)').toEqual(first);
  let previous = first;
  for (const w of worldWrites) {
    await w.write(storage);
    const next = await storage.dump();
    expect(next, `dump() does not show ${w.label}`).not.toEqual(previous);
    previous = next;
  }
}

export async function checkRowsAreCopies(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.flags.insert(flag());
  const written = entity();
  await storage.entities.put(written);
  written.name = 'mutated';
  written.attributes['plan'] = 'mutated';
  (written.attributes['tags'] as string[]).push('mutated');
  expect(await storage.entities.get('env_a', 'user', 'user_a'), 'mutating a row after writing it changed the store').toEqual(entity());

  const read = (await storage.entities.get('env_a', 'user', 'user_a'))!;
  read.attributes['plan'] = 'mutated';
  ((read.attributes['nested'] as { deep: unknown[] }).deep).push('mutated');
  expect(await storage.entities.get('env_a', 'user', 'user_a'), 'mutating a returned row changed the store').toEqual(entity());
  expect(sampleAttributes['plan'], 'the store mutated a fixture').toBe('pro');

  await storage.segments.insert(segment());
  const [listed] = await storage.segments.listByApp('app_a');
  listed!.name = 'mutated';
  listed!.filter = { type: 'constant', value: false };
  expect(await storage.segments.get('seg_a'), 'mutating a listed row changed the store').toEqual(segment());

  await storage.transaction(async (tx) => {
    await tx.targeting.put(targeting());
    const inTx = (await tx.targeting.get('flag_a', 'env_a'))!;
    inTx.rules.length = 0;
    expect(await tx.targeting.get('flag_a', 'env_a'), 'mutating a row read in a transaction changed it').toEqual(targeting());
  });
  expect(await storage.targeting.get('flag_a', 'env_a'), 'mutating a row read in a transaction changed the store').toEqual(targeting());
}

export async function checkCloseIsIdempotent(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.close();
  await storage.close();
  await Promise.all([storage.close(), storage.close()]);
}

/** Timers and sockets this process holds now, by kind (what keeps Node from exiting). */
function heldResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind === 'Timeout' || kind === 'Immediate' || kind.startsWith('TCP')) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/**
 * The port: `close()` stops timers and closes connections. A store that leaves one running keeps the host's
 * process alive after Flagmount's `close()`, which hosts rely on to exit.
 */
export async function checkCloseReleasesResources(storage: Storage, factory: StorageFactory): Promise<void> {
  await seedBase(storage);
  // Short-lived timers of the first store (a notice on its way) must be gone from the baseline.
  await sleep(100);
  const before = heldResources();
  const other = await factory.create();
  await other.migrate();
  await other.organizations.list();
  await other.close();
  let left: string[] = [];
  for (let waited = 0; waited <= 2000; waited += 50) {
    const after = heldResources();
    left = [...after].filter(([kind, n]) => n > (before.get(kind) ?? 0)).map(([kind, n]) => `${n - (before.get(kind) ?? 0)} ${kind}`);
    if (!left.length) return;
    await sleep(50);
  }
  expect(left, 'timers or sockets still held 2 s after close() (a process would not exit)').toEqual([]);
}

export async function checkRejectsAfterClose(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.close();
  await rejection(storage.organizations.get('org_a'), 'organizations.get after close()');
  await rejection(storage.environments.listAll(), 'environments.listAll after close()');
  await rejection(storage.organizations.insert(organization({ id: 'org_b' })), 'organizations.insert after close()');
  await rejection(storage.environments.bumpVersion('env_a'), 'environments.bumpVersion after close()');
  await rejection(storage.transaction(async (tx) => tx.organizations.list()), 'transaction() after close()');
  await rejection(storage.dump(), 'dump() after close()');
}

export async function checkReopenKeepsWrites(storage: Storage, factory: StorageFactory): Promise<void> {
  await seedWorld(storage);
  for (let i = 0; i < 3; i++) await storage.environments.bumpVersion('env_a');
  await rejection(
    storage.transaction(async (tx) => {
      await tx.organizations.insert(organization({ id: 'org_rolled_back' }));
      throw new Error('roll back');
    }),
    'a rolled-back transaction before close',
  );
  await storage.transaction(async (tx) => {
    await tx.organizations.insert(organization({ id: 'org_last' }));
    await tx.environments.bumpVersion('env_a');
  });
  const before = await storage.dump();
  await storage.close();

  const reopened = await factory.reopen!(storage);
  await reopened.migrate();
  expect(await reopened.dump(), 'reopening lost or changed committed data').toEqual(before);
  expect((await reopened.environments.get('env_a'))?.flagStateVersion, 'flagStateVersion survives reopening').toBe(4);
  expect(await reopened.organizations.get('org_rolled_back'), 'a rolled-back write came back after reopening').toBeUndefined();
  expect((await reopened.events.listTracks('env_a', 10)).map((t) => t.id), 'event order survives reopening').toEqual(['trk_a', 'trk_b']);
  expect(await reopened.environments.bumpVersion('env_a'), 'a reopened store keeps counting').toBe(5);
  await reopened.close();
}

export const lifecycleChecks: CheckGroup = {
  name: 'lifecycle',
  checks: [
    { name: 'migrate() twice (and concurrently) does no harm', run: checkMigrateIsIdempotent },
    { name: 'dump() is stable and shows a write to every table', run: checkDump },
    { name: 'rows are copies: mutating inputs or results never changes the store', run: checkRowsAreCopies },
    { name: 'close() is idempotent', run: checkCloseIsIdempotent },
    { name: 'operations reject after close()', run: checkRejectsAfterClose },
    { name: 'close() stops its timers and closes its connections', run: checkCloseReleasesResources },
    { name: 'reopening keeps every committed write', run: checkReopenKeepsWrites, requires: 'reopen' },
  ],
};
