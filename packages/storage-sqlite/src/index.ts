import type { Storage } from '@flagmount/core';
import { describeError, kyselyStorage, toLogger, type Database, type StorageLogger } from '@flagmount/storage-kysely';
import { CompiledQuery, Kysely, type DatabaseConnection } from 'kysely';
import sqlite3 from 'sqlite3';
import { Sqlite3Dialect } from './sqlite3-dialect.js';
import type { Sqlite3Database } from './sqlite3-dialect-config.js';
import { sqliteStoreDialect } from './store-dialect.js';

export { Sqlite3Dialect, Sqlite3Adapter } from './sqlite3-dialect.js';
export { Sqlite3Driver } from './sqlite3-driver.js';
export type { Sqlite3DialectConfig, Sqlite3Database, Sqlite3RunResult } from './sqlite3-dialect-config.js';
export { mapSqliteError } from './errors.js';
export { sqliteStoreDialect } from './store-dialect.js';

export interface SqliteStorageOptions {
  /** A file path, or ':memory:' for a private in-memory database (gone on close). */
  filename: string;
  /** How long a statement waits for another process's lock before failing. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * How often to read the change notices other processes sharing the file committed (ms). Default 1000; 0 when
   * this store is the file's only user. Notices published through this store reach its own listeners at once
   * either way. Ignored for ':memory:'.
   */
  pollIntervalMs?: number;
  logger?: Partial<StorageLogger>;
}

const isMemory = (filename: string) => filename === ':memory:' || filename === '';

function openDatabase(filename: string, logger: StorageLogger): Promise<Sqlite3Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(filename, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE, (err) => {
      if (err) reject(err);
      else resolve(db as unknown as Sqlite3Database);
    });
    // sqlite3 emits 'error' when a failure has no callback to go to; unhandled, that event would kill the host.
    db.on('error', (error: Error) => logger.error('sqlite error', describeError(error)));
  });
}

/** Runs on the connection before anything else; the order matters (see each line). */
async function configure(
  connection: DatabaseConnection,
  filename: string,
  busyTimeoutMs: number,
  logger: StorageLogger,
): Promise<void> {
  const pragma = (statement: string) => connection.executeQuery<Record<string, unknown>>(CompiledQuery.raw(statement));
  // First, so that the statements below already wait for a lock another process holds.
  await pragma(`pragma busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  if (!isMemory(filename)) {
    // WAL: readers never block the writer nor the writer the readers, and it persists in the file.
    const { rows } = await pragma('pragma journal_mode = wal');
    const mode = String(Object.values(rows[0] ?? {})[0] ?? '');
    if (mode.toLowerCase() !== 'wal') logger.warn('sqlite could not enable WAL journaling', { filename, mode });
  }
  // FULL, not NORMAL: in WAL mode NORMAL skips the fsync at commit, so a power cut can lose transactions that were
  // already acknowledged. An acknowledged write (a 200) must survive; the cost is one fsync per commit, which the
  // core's group-commit of ingestion amortises.
  await pragma('pragma synchronous = full');
  await pragma('pragma foreign_keys = on');
}

/**
 * The embedded store: one SQLite file (WAL mode), read and written through Kysely on the asynchronous `sqlite3`
 * driver. Opens the file lazily on first use; `migrate()` creates the schema.
 */
export function sqliteStorage(options: SqliteStorageOptions): Storage {
  const logger = toLogger(options.logger);
  const { filename } = options;
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const dialect = new Sqlite3Dialect({
    database: () => openDatabase(filename, logger),
    onCreateConnection: (connection) => configure(connection, filename, busyTimeoutMs, logger),
  });
  const db = new Kysely<Database>({ dialect });
  const pollIntervalMs = isMemory(filename) ? 0 : (options.pollIntervalMs ?? 1000);
  return kyselyStorage(db, sqliteStoreDialect({ pollIntervalMs }), { logger });
}
