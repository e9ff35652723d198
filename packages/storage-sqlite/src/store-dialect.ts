import { randomUUID } from 'node:crypto';
import { appendNotices, NoticeLogFeed, type KyselyStoreDialect, type ValueEncoding } from '@flagmount/storage-kysely';
import { mapSqliteError } from './errors.js';

export interface SqliteDialectSettings {
  /**
   * How often to read notices other processes committed to the same file (ms); 0: this store is the file's only
   * user, so notices stay in process and none are logged.
   */
  pollIntervalMs: number;
}

const encoding: ValueEncoding = { bool: (value) => (value ? 1 : 0), param: () => '?' };

/**
 * What makes the SQLite store SQLite:
 * - transactions: Kysely's plain transaction; the driver's single connection and BEGIN IMMEDIATE serialise them
 *   (in process by the mutex, across processes by SQLite's write lock);
 * - notices: delivered in process after commit; for other processes sharing the file they are also appended to the
 *   `change_notices` log inside the transaction, which those processes poll (SQLite has no NOTIFY);
 * - booleans as 0/1 (SQLite has no boolean type);
 * - keys sort by SQLite's BINARY collation, which is already code-point order.
 */
export function sqliteStoreDialect(settings: SqliteDialectSettings): KyselyStoreDialect {
  const origin = randomUUID();
  const shared = settings.pollIntervalMs > 0;
  return {
    kind: 'sqlite',
    encoding,
    ddl: { text: 'text', sequenceType: 'integer', sequence: 'rowid' },
    transaction: (db, fn) => db.transaction().execute(fn),
    // The single connection is the lock within a process; the migrator's BEGIN IMMEDIATE is the lock across them.
    withMigrationLock: (db, fn) => db.connection().execute(fn),
    mapError: mapSqliteError,
    ...(shared
      ? {
          sendNotices: (db, notices, explicit) => appendNotices(db, notices, { origin, explicit, enc: encoding }),
          createFeed: (context) =>
            new NoticeLogFeed(context, { origin, intervalMs: settings.pollIntervalMs, retentionMs: 60 * 60 * 1000 }),
        }
      : {}),
  };
}
