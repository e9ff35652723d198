import { Kysely, sql } from 'kysely';
import sqlite3 from 'sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Sqlite3Dialect, type Sqlite3Database } from '@flagmount/storage-sqlite';

interface Db {
  t: { id: number; v: string };
}

/** An in-memory sqlite3 database that counts the statements prepared on it and those still open at close. */
function countingDatabase() {
  const counts = { prepared: 0, finalized: 0, closeError: null as Error | null };
  const open = () =>
    new Promise<Sqlite3Database>((resolve, reject) => {
      const db = new sqlite3.Database(':memory:', (err) => {
        if (err) return reject(err);
        const prepare = db.prepare.bind(db);
        const close = db.close.bind(db);
        Object.assign(db, {
          prepare(text: string, callback: (err: Error | null) => void) {
            counts.prepared++;
            const statement = prepare(text, callback);
            const finalize = statement.finalize.bind(statement);
            return Object.assign(statement, {
              finalize(done: (err: Error | null) => void) {
                counts.finalized++;
                return finalize(done);
              },
            });
          },
          close(done: (err: Error | null) => void) {
            return close((err) => {
              counts.closeError = err;
              done(err);
            });
          },
        });
        resolve(db as unknown as Sqlite3Database);
      });
    });
  return { counts, open };
}

let current: Kysely<Db> | undefined;
afterEach(async () => {
  await current?.destroy();
  current = undefined;
});

async function fresh(open: () => Promise<Sqlite3Database>) {
  current = new Kysely<Db>({ dialect: new Sqlite3Dialect({ database: open }) });
  await current.schema.createTable('t').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('v', 'text').execute();
  return current;
}

describe('Sqlite3Driver statement cache', () => {
  it('prepares a query shape once and runs it again with new parameters', async () => {
    const { counts, open } = countingDatabase();
    const db = await fresh(open);
    for (let id = 1; id <= 20; id++) await db.insertInto('t').values({ id, v: `v${id}` }).execute();
    for (let id = 1; id <= 20; id++) {
      const row = await db.selectFrom('t').selectAll().where('id', '=', id).executeTakeFirst();
      expect(row).toEqual({ id, v: `v${id}` });
    }
    // One insert shape and one select shape.
    expect(counts.prepared).toBe(2);
  });

  it('drops a statement that failed, and the next query of that shape works', async () => {
    const { counts, open } = countingDatabase();
    const db = await fresh(open);
    await db.insertInto('t').values({ id: 1, v: 'a' }).execute();
    await expect(db.insertInto('t').values({ id: 1, v: 'b' }).execute()).rejects.toThrow(/UNIQUE|constraint/i);
    await db.insertInto('t').values({ id: 2, v: 'b' }).execute();
    expect(await db.selectFrom('t').select('v').orderBy('id').execute()).toEqual([{ v: 'a' }, { v: 'b' }]);
    expect(counts.finalized).toBeGreaterThanOrEqual(1);
  });

  it('reports a statement that cannot be prepared as the query’s error, and keeps nothing of it', async () => {
    const { open } = countingDatabase();
    const db = await fresh(open);
    await expect(sql`select * from missing_table`.execute(db)).rejects.toThrow(/no such table/);
    await expect(sql`select * from missing_table`.execute(db)).rejects.toThrow(/no such table/);
    expect((await sql<{ n: number }>`select 1 as n`.execute(db)).rows).toEqual([{ n: 1 }]);
  });

  it('keeps a bounded number of statements and finalises every one before closing', async () => {
    const { counts, open } = countingDatabase();
    const db = await fresh(open);
    // 300 distinct texts: more than the cache holds, so the oldest are finalised along the way.
    for (let i = 0; i < 300; i++) await sql.raw(`select ${i} as n`).execute(db);
    expect(counts.prepared).toBe(300);
    expect(counts.finalized).toBeGreaterThan(100);
    await db.destroy();
    current = undefined;
    expect(counts.finalized).toBe(counts.prepared);
    expect(counts.closeError).toBeNull();
  });
});
