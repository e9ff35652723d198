import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, Kysely, sql } from 'kysely';
import sqlite3 from 'sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Sqlite3Dialect, type Sqlite3Database } from '@flagmount/storage-sqlite';

interface Db {
  t: { id: number; v: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function openMemory(): Promise<Sqlite3Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(':memory:', (err) => (err ? reject(err) : resolve(db as unknown as Sqlite3Database)));
  });
}

let current: Kysely<Db> | undefined;
async function fresh(): Promise<Kysely<Db>> {
  current = new Kysely<Db>({ dialect: new Sqlite3Dialect({ database: openMemory }) });
  await current.schema.createTable('t').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('v', 'text').execute();
  return current;
}

afterEach(async () => {
  await current?.destroy();
  current = undefined;
});

describe('Sqlite3Driver', () => {
  it('reports rows, affected rows and insert ids the way Kysely expects', async () => {
    const db = await fresh();
    const inserted = await db.insertInto('t').values([{ id: 1, v: 'a' }, { id: 2, v: 'b' }]).executeTakeFirst();
    expect(inserted.numInsertedOrUpdatedRows).toBe(2n);
    expect(inserted.insertId).toBe(2n);
    const updated = await db.updateTable('t').set({ v: 'z' }).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const returned = await db.updateTable('t').set({ v: 'y' }).where('id', '=', 1).returning(['id', 'v']).execute();
    expect(returned).toEqual([{ id: 1, v: 'y' }]);
    const raw = await sql`delete from t where id = ${2}`.execute(db);
    expect(raw.numAffectedRows).toBe(1n);
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, v: 'y' }]);
    const ignored = await db.insertInto('t').values({ id: 1, v: 'dup' }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    expect(ignored.numInsertedOrUpdatedRows).toBe(0n);
  });

  it('serialises concurrent queries behind a running transaction, in arrival order', async () => {
    const db = await fresh();
    const events: string[] = [];
    const tx = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ id: 1, v: 'in-tx' }).execute();
      events.push('tx wrote');
      await sleep(30);
      events.push('tx commits');
    });
    await sleep(5);
    const reads = [1, 2, 3].map((n) =>
      db
        .selectFrom('t')
        .selectAll()
        .execute()
        .then((rows) => events.push(`read ${n} saw ${rows.length}`)),
    );
    await Promise.all([tx, ...reads]);
    expect(events).toEqual(['tx wrote', 'tx commits', 'read 1 saw 1', 'read 2 saw 1', 'read 3 saw 1']);
  });

  it('rolls a transaction back when its function rejects', async () => {
    const db = await fresh();
    await db.insertInto('t').values({ id: 1, v: 'kept' }).execute();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 2, v: 'lost' }).execute();
        await trx.updateTable('t').set({ v: 'changed' }).where('id', '=', 1).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, v: 'kept' }]);
    // The connection is free again (the mutex was released on rollback).
    await db.insertInto('t').values({ id: 3, v: 'after' }).execute();
  });

  it('a transaction SQLite rolled back itself (disk full) fails with that error, not with the rollback after it', async () => {
    const db = await fresh();
    await db.insertInto('t').values({ id: 1, v: 'kept' }).execute();
    // A database that may not grow stands in for a full disk: SQLITE_FULL, after which SQLite has already rolled
    // the whole transaction back, so the ROLLBACK Kysely sends next finds none.
    await sql`pragma max_page_count = ${sql.raw(String(3))}`.execute(db);
    const failure = db.transaction().execute(async (trx) => {
      for (let i = 0; i < 10; i++) await trx.insertInto('t').values({ id: 10 + i, v: 'x'.repeat(3000) }).execute();
    });
    await expect(failure).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, v: 'kept' }]);
    await db.insertInto('t').values({ id: 2, v: 'after' }).execute();
  });

  it('supports savepoints in controlled transactions', async () => {
    const db = await fresh();
    const trx = await db.startTransaction().execute();
    await trx.insertInto('t').values({ id: 1, v: 'a' }).execute();
    const sp = await trx.savepoint('sp1').execute();
    await sp.insertInto('t').values({ id: 2, v: 'b' }).execute();
    await sp.rollbackToSavepoint('sp1').execute();
    await trx.commit().execute();
    expect(await db.selectFrom('t').select('id').execute()).toEqual([{ id: 1 }]);
  });

  it('takes the write lock at BEGIN (BEGIN IMMEDIATE), so a second connection cannot start one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flagmount-driver-'));
    const file = join(dir, 'lock.db');
    const open = (busyMs: number) =>
      new Kysely<Db>({
        dialect: new Sqlite3Dialect({
          database: () =>
            new Promise((resolve, reject) => {
              const db = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(db as unknown as Sqlite3Database)));
            }),
          onCreateConnection: async (connection) => {
            await connection.executeQuery(CompiledQuery.raw(`pragma busy_timeout = ${busyMs}`));
          },
        }),
      });
    const first = open(1000);
    const second = open(0);
    let release: () => void = () => undefined;
    try {
      await first.schema.createTable('t').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('v', 'text').execute();
      const held = new Promise<void>((resolve) => (release = resolve));
      let begun!: () => void;
      const started = new Promise<void>((resolve) => (begun = resolve));
      // This transaction only reads: with a deferred BEGIN it would hold no write lock at all.
      const holder = first.transaction().execute(async (trx) => {
        await trx.selectFrom('t').selectAll().execute();
        begun();
        await held;
      });
      await started;
      await expect(second.transaction().execute(async () => 'never')).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      release();
      await holder;
      await expect(second.transaction().execute(async () => 'now')).resolves.toBe('now');
    } finally {
      release(); // even when an assertion failed: destroy() waits for the holding transaction
      await first.destroy();
      await second.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('streams select queries', async () => {
    const db = await fresh();
    await db.insertInto('t').values([1, 2, 3, 4, 5].map((id) => ({ id, v: String(id) }))).execute();
    const seen: number[] = [];
    for await (const row of db.selectFrom('t').select('id').orderBy('id').stream(2)) seen.push(row.id);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('destroy waits for the query in progress, is idempotent, and later queries reject', async () => {
    const db = await fresh();
    const slow = db.transaction().execute(async (trx) => {
      await sleep(20);
      await trx.insertInto('t').values({ id: 1, v: 'finished' }).execute();
      return 'done';
    });
    await sleep(2);
    await Promise.all([db.destroy(), db.destroy()]);
    await expect(slow).resolves.toBe('done');
    await expect(db.selectFrom('t').selectAll().execute()).rejects.toThrow();
    current = undefined;
  });
});
