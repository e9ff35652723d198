import type { Storage } from '@flagmount/core';
import { kyselyStorage, toLogger, type Database, type StorageLogger } from '@flagmount/storage-kysely';
import { Kysely } from 'kysely';
import { configureConnection, isMemory, openDatabase } from './connection.js';
import { Sqlite3Dialect } from './sqlite3-dialect.js';
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
    onCreateConnection: (connection) => configureConnection(connection, { filename, busyTimeoutMs, logger }),
  });
  const db = new Kysely<Database>({ dialect });
  const pollIntervalMs = isMemory(filename) ? 0 : (options.pollIntervalMs ?? 1000);
  return kyselyStorage(db, sqliteStoreDialect({ pollIntervalMs }), { logger });
}
