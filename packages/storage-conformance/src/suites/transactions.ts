import type { Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { app, flag, organization, seedBase, seedWorld } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { expectConflict, rejection, sleep } from '../util.js';
import { worldWrites } from '../writes.js';

/** Attaches handlers at once, so a read started inside a transaction can be inspected after it. */
export function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

export async function checkTransactionCommits(storage: Storage): Promise<void> {
  await seedBase(storage);
  const seen = await storage.transaction(async (tx) => {
    await tx.flags.insert(flag());
    await tx.flags.update('flag_a', { name: 'Named in tx' });
    await sleep(2);
    await tx.apps.insert(app({ id: 'app_b' }));
    return {
      get: await tx.flags.get('flag_a'),
      byKey: await tx.flags.getByKey('app_a', 'key_flag_a'),
      list: await tx.flags.listByApp('app_a'),
      apps: (await tx.apps.list()).map((a) => a.id),
    };
  });
  const expected = { ...flag(), name: 'Named in tx' };
  expect(seen, 'a transaction reads its own writes').toEqual({ get: expected, byKey: expected, list: [expected], apps: ['app_a', 'app_b'] });
  expect(await storage.flags.get('flag_a'), 'a committed transaction’s writes are stored').toEqual(expected);
  expect(await storage.apps.get('app_b'), 'every write of the transaction is stored').toBeDefined();
  expect(await storage.transaction(async () => 42), 'transaction() resolves what fn resolves').toBe(42);
}

export async function checkRollbackOfEveryWrite(storage: Storage): Promise<void> {
  await seedWorld(storage);
  const before = await storage.dump();
  const visibleBefore = await Promise.all(worldWrites.map((w) => w.visible(storage)));
  const failure = new Error('deliberate failure');
  const invisible: string[] = [];
  const error = await rejection(
    storage.transaction(async (tx) => {
      for (const w of worldWrites) {
        await w.write(tx);
        if (!(await w.visible(tx))) invisible.push(w.label);
        await sleep(0);
      }
      throw failure;
    }),
    'a transaction whose fn rejects',
  );
  expect(error, 'transaction() rejects with the error fn rejected with').toBe(failure);
  expect(invisible, 'writes a transaction could not read back itself').toEqual([]);
  expect(await storage.dump(), 'a rolled-back transaction left writes behind').toEqual(before);
  for (const [i, w] of worldWrites.entries()) {
    expect(await w.visible(storage), `${w.label} of a rolled-back transaction is visible`).toBe(visibleBefore[i]);
  }
}

export async function checkRollbackOnConflict(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.flags.insert(flag());
  const before = await storage.dump();
  await expectConflict(
    storage.transaction(async (tx) => {
      await tx.organizations.insert(organization({ id: 'org_b' }));
      await tx.environments.bumpVersion('env_a');
      await tx.flags.insert(flag({ id: 'flag_b', key: 'key_flag_a' }));
    }),
    'a transaction whose write hits a unique key',
  );
  expect(await storage.dump(), 'the writes before the conflict were rolled back').toEqual(before);
}

/** Reads from outside during a transaction never see its writes, whenever they are answered. */
export async function checkIsolation(storage: Storage): Promise<void> {
  await seedBase(storage);
  const before = await storage.dump();
  const failure = new Error('rolled back on purpose');
  let reads: ReturnType<typeof startReads> | undefined;
  function startReads() {
    return {
      org: settle(storage.organizations.get('org_b')),
      orgs: settle(storage.organizations.list()),
      env: settle(storage.environments.get('env_a')),
      dump: settle(storage.dump()),
    };
  }
  await rejection(
    storage.transaction(async (tx) => {
      await tx.organizations.insert(organization({ id: 'org_b' }));
      await tx.environments.bumpVersion('env_a');
      reads = startReads();
      await sleep(20);
      throw failure;
    }),
    'the isolation probe transaction',
  );
  const r = reads!;
  expect(await r.org, 'an outside read saw a row of an uncommitted transaction').toEqual({ ok: true, value: undefined });
  expect(await r.orgs, 'an outside list saw a row of an uncommitted transaction').toEqual({ ok: true, value: [organization()] });
  const env = await r.env;
  expect(env.ok ? env.value?.flagStateVersion : env.error, 'an outside read saw an uncommitted bump').toBe(0);
  expect(await r.dump, 'dump() during a transaction showed its uncommitted writes').toEqual({ ok: true, value: before });

  // A read answered while fn still runs (before any commit can happen) sees the old state.
  let answeredInside: { version: number | undefined } | undefined;
  await storage.transaction(async (tx) => {
    await tx.environments.bumpVersion('env_a');
    const read = storage.environments.get('env_a').then((env) => ({ version: env?.flagStateVersion }));
    answeredInside = await Promise.race([read, sleep(20).then(() => undefined)]);
  });
  if (answeredInside !== undefined) {
    expect(answeredInside.version, 'a read outside a running transaction saw its uncommitted bump').toBe(0);
  }
  expect((await storage.environments.get('env_a'))?.flagStateVersion, 'after commit, outside reads see it').toBe(1);
}

export async function checkBumpVersionConcurrent(storage: Storage): Promise<void> {
  await seedBase(storage);
  const n = 50;
  const inTx = await Promise.all(
    Array.from({ length: n }, () => storage.transaction((tx) => tx.environments.bumpVersion('env_a'))),
  );
  expect((await storage.environments.get('env_a'))?.flagStateVersion, 'bumpVersion lost an increment under 50 concurrent transactions').toBe(n);
  expect([...inTx].sort((a, b) => a - b), 'each concurrent bumpVersion resolves its own new value').toEqual(
    Array.from({ length: n }, (_, i) => i + 1),
  );
  const direct = await Promise.all(Array.from({ length: n }, () => storage.environments.bumpVersion('env_a')));
  expect((await storage.environments.get('env_a'))?.flagStateVersion, 'bumpVersion lost an increment under 50 concurrent calls').toBe(2 * n);
  expect([...direct].sort((a, b) => a - b), 'each concurrent bumpVersion resolves its own new value').toEqual(
    Array.from({ length: n }, (_, i) => n + i + 1),
  );
}

/** Serialisable transactions: a read-then-write in each of many concurrent transactions loses no update. */
export async function checkSerialisedReadModifyWrite(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.update('env_a', { name: '0' });
  const n = 20;
  await Promise.all(
    Array.from({ length: n }, () =>
      storage.transaction(async (tx) => {
        const env = await tx.environments.get('env_a');
        await sleep(1);
        await tx.environments.update('env_a', { name: String(Number(env?.name) + 1) });
      }),
    ),
  );
  expect((await storage.environments.get('env_a'))?.name, 'concurrent read-modify-write transactions lost an update').toBe(String(n));
}

/** The port: a nested `transaction()` rejects. A store that waits for the outer one instead deadlocks the caller. */
export async function checkNestedTransactionRejects(storage: Storage): Promise<void> {
  await seedBase(storage);
  const nested = storage.transaction(async () => storage.transaction(async () => 'inner'));
  const outcome = await Promise.race([
    nested.then(
      () => 'ran the inner transaction',
      () => 'rejected',
    ),
    sleep(2000).then(() => 'still waiting after 2 s (a deadlock)'),
  ]);
  expect(outcome, 'a transaction() started inside a transaction rejects').toBe('rejected');
}

export const transactionChecks: CheckGroup = {
  name: 'transactions',
  checks: [
    { name: 'commit: every write kept, reads inside see own writes, resolves fn’s value', run: checkTransactionCommits },
    { name: 'rollback of every write method when fn rejects (dump before = after)', run: checkRollbackOfEveryWrite },
    { name: 'a ConflictError inside a transaction rejects it and rolls everything back', run: checkRollbackOnConflict },
    { name: 'reads outside a transaction see only committed state', run: checkIsolation },
    { name: 'bumpVersion exactly +1 per call under 50 concurrent transactions and calls', run: checkBumpVersionConcurrent },
    { name: 'concurrent read-modify-write transactions are serialised', run: checkSerialisedReadModifyWrite },
    { name: 'a nested transaction() rejects, neither running nor deadlocking', run: checkNestedTransactionRejects },
  ],
};
