import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConflictError, StorageUnavailableError, type ChangeNotice, type EnvironmentRecord, type Storage } from '@flagmount/core';
import { silentLogger } from '@flagmount/storage-kysely';
import { Sqlite3Dialect, sqliteStorage, type SqliteStorageOptions } from '@flagmount/storage-sqlite';
import { Kysely, sql } from 'kysely';
import { configureConnection, openDatabase } from '../src/connection.js';
import sqlite3 from 'sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

let dir: string;
const opened: Storage[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flagmount-sqlite-'));
});
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
const fileName = () => join(dir, `store-${counter++}.db`);
function open(options: SqliteStorageOptions): Storage {
  const storage = sqliteStorage(options);
  opened.push(storage);
  return storage;
}

const env = (over: Partial<EnvironmentRecord> = {}): EnvironmentRecord => ({
  id: 'env_a',
  appId: 'app_a',
  name: 'Development',
  isProduction: false,
  order: 0,
  flagStateVersion: 0,
  publishableKey: 'pub_0123456789abcdefghijklmnopq',
  secretKey: 'sec_0123456789abcdefghijklmnopq',
  createdAt: '2024-01-01T00:00:00.000Z',
  ...over,
});

/** Reads PRAGMAs and tables through a separate plain sqlite3 connection: what is on disk, not what the store says. */
function inspect<T>(file: string, query: string): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(err);
      db.all(query, (error, rows) => db.close(() => (error ? reject(error) : resolve(rows as T[]))));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(5);
  }
}

describe('sqliteStorage', () => {
  it('opens the file lazily, then leaves it in WAL mode', async () => {
    const file = fileName();
    const storage = open({ filename: file });
    expect(storage.kind).toBe('sqlite');
    expect(existsSync(file), 'constructing a store touches no file').toBe(false);
    await storage.migrate();
    expect(existsSync(file)).toBe(true);
    expect(await inspect<{ journal_mode: string }>(file, 'pragma journal_mode')).toEqual([{ journal_mode: 'wal' }]);
  });

  it('configures each connection: busy_timeout, synchronous=FULL, foreign_keys=ON; no WAL for :memory:', async () => {
    const pragmasOf = async (filename: string) => {
      const db = new Kysely<Record<string, never>>({
        dialect: new Sqlite3Dialect({
          database: () => openDatabase(filename, silentLogger),
          onCreateConnection: (connection) => configureConnection(connection, { filename, busyTimeoutMs: 1234, logger: silentLogger }),
        }),
      });
      try {
        const read = async (name: string) => Object.values((await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db)).rows[0]!)[0];
        return {
          busy: await read('busy_timeout'),
          synchronous: await read('synchronous'),
          foreignKeys: await read('foreign_keys'),
          journal: await read('journal_mode'),
        };
      } finally {
        await db.destroy();
      }
    };
    expect(await pragmasOf(fileName())).toEqual({ busy: 1234, synchronous: 2, foreignKeys: 1, journal: 'wal' });
    expect(await pragmasOf(':memory:')).toEqual({ busy: 1234, synchronous: 2, foreignKeys: 1, journal: 'memory' });
  });

  it('a second handle waits for the first one’s write lock instead of failing (busy_timeout)', async () => {
    const file = fileName();
    const first = open({ filename: file, busyTimeoutMs: 2000 });
    const second = open({ filename: file, busyTimeoutMs: 2000 });
    await first.migrate();
    await second.migrate();
    await first.environments.insert(env());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holder = first.transaction(async (tx) => {
      await tx.environments.bumpVersion('env_a');
      await held;
    });
    await sleep(20);
    const waiter = second.environments.bumpVersion('env_a');
    await sleep(100);
    release();
    await holder;
    await expect(waiter).resolves.toBe(2);
  });

  it(':memory: works without WAL and without a change feed', async () => {
    const storage = open({ filename: ':memory:' });
    await storage.migrate();
    await storage.environments.insert(env());
    const seen: ChangeNotice[] = [];
    storage.onChange((n) => seen.push(n));
    await storage.transaction(async (tx) => tx.publishChange('env_a', await tx.environments.bumpVersion('env_a')));
    expect(seen).toEqual([{ envId: 'env_a', version: 1 }]);
  });

  it('reopening keeps committed data, and migrate() is idempotent', async () => {
    const file = fileName();
    const first = sqliteStorage({ filename: file });
    await first.migrate();
    await first.environments.insert(env());
    await first.environments.bumpVersion('env_a');
    await first.close();
    const again = open({ filename: file });
    await again.migrate();
    await again.migrate();
    expect((await again.environments.get('env_a'))?.flagStateVersion).toBe(1);
    const migrations = await inspect<{ name: string }>(file, 'select name from flagmount_migration order by name');
    expect(migrations).toEqual([{ name: '0001_initial' }, { name: '0003_schedules' }, { name: '0005_check_ring' }, { name: '0006_daily_exposures' }]);
    const kyselyDefaults = await inspect(file, "select name from sqlite_master where name like 'kysely_%'");
    expect(kyselyDefaults, 'no tables under Kysely’s default names, which a host may use').toEqual([]);
  });

  it('two handles migrating one fresh file at once both succeed, and the schema is created once', async () => {
    const file = fileName();
    const a = open({ filename: file });
    const b = open({ filename: file });
    await Promise.all([a.migrate(), b.migrate(), a.migrate()]);
    await a.environments.insert(env());
    expect(await b.environments.get('env_a')).toEqual(env());
    expect(await inspect(file, 'select name from flagmount_migration')).toEqual([{ name: '0001_initial' }, { name: '0003_schedules' }, { name: '0005_check_ring' }, { name: '0006_daily_exposures' }]);
  });

  it('maps unique violations to ConflictError and an unopenable file to StorageUnavailableError', async () => {
    const storage = open({ filename: ':memory:' });
    await storage.migrate();
    await storage.environments.insert(env());
    await expect(storage.environments.insert(env({ id: 'env_b' }))).rejects.toBeInstanceOf(ConflictError);
    const broken = open({ filename: join(dir, 'no-such-dir', 'x.db') });
    await expect(broken.migrate()).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(broken.environments.listAll()).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('close() is idempotent and later calls reject with StorageUnavailableError', async () => {
    const storage = sqliteStorage({ filename: fileName() });
    await storage.migrate();
    await Promise.all([storage.close(), storage.close()]);
    await storage.close();
    await expect(storage.environments.listAll()).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.transaction(async () => 1)).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('refuses transaction() inside a transaction instead of waiting for itself', async () => {
    const storage = open({ filename: ':memory:' });
    await storage.migrate();
    await expect(storage.transaction(() => storage.transaction(async () => 1))).rejects.toThrow(/inside a transaction/);
    await expect(storage.transaction(async () => 2)).resolves.toBe(2);
  });

  it('a tx used after its transaction ended rejects instead of writing outside any transaction', async () => {
    const storage = open({ filename: ':memory:' });
    await storage.migrate();
    let kept: Parameters<Parameters<Storage['transaction']>[0]>[0] | undefined;
    await storage.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.environments.insert(env())).rejects.toThrow(/already finished/);
    expect(() => kept!.publishChange('env_a', 1)).toThrow(/already finished/);
    expect(await storage.environments.listAll()).toEqual([]);
  });

  it('delivers notices to another handle on the same file through the notice log, never rolled-back ones', async () => {
    const file = fileName();
    const a = open({ filename: file, pollIntervalMs: 20 });
    const b = open({ filename: file, pollIntervalMs: 20 });
    await a.migrate();
    await b.migrate();
    await a.environments.insert(env());
    const seenA: ChangeNotice[] = [];
    const seenB: ChangeNotice[] = [];
    a.onChange((n) => seenA.push(n));
    b.onChange((n) => seenB.push(n));
    await expect(
      a.transaction(async (tx) => {
        tx.publishChange('env_a', 99);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await a.transaction(async (tx) => tx.publishChange('env_a', await tx.environments.bumpVersion('env_a')));
    await a.publishChange('env_a', 7);
    await waitFor(() => seenB.length >= 2);
    await sleep(60);
    expect(seenB).toEqual([
      { envId: 'env_a', version: 1 },
      { envId: 'env_a', version: 7 },
    ]);
    expect(seenA, 'the publishing handle hears its notices once, at commit, not again from the log').toEqual(seenB);
  });

  it('writes no notice log when it is the file’s only user (pollIntervalMs 0)', async () => {
    const file = fileName();
    const storage = open({ filename: file, pollIntervalMs: 0 });
    await storage.migrate();
    await storage.environments.insert(env());
    await storage.transaction(async (tx) => tx.publishChange('env_a', await tx.environments.bumpVersion('env_a')));
    expect(await inspect(file, 'select * from change_notices')).toEqual([]);
  });

  it('writes nothing to the console', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m));
    try {
      const storage = open({ filename: join(dir, 'no-such-dir', 'quiet.db') });
      await storage.migrate().catch(() => undefined);
      storage.onChange(() => {
        throw new Error('listener failure');
      });
      const ok = open({ filename: ':memory:' });
      await ok.migrate();
      ok.onChange(() => {
        throw new Error('listener failure');
      });
      await ok.publishChange('env_a', 1);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('reports through the injected logger', async () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const storage = open({ filename: ':memory:', logger });
    await storage.migrate();
    expect(logger.info).toHaveBeenCalledWith('sqlite storage migrated', { migration: '0001_initial', status: 'Success' });
    storage.onChange(() => {
      throw new Error('listener failure');
    });
    await storage.publishChange('env_a', 1);
    expect(logger.warn).toHaveBeenCalledWith('storage change listener threw', expect.objectContaining({ error: 'listener failure' }));
  });
});
