import type { ChangeNotice, TransactionOptions } from '@flagmount/core';
import type { ColumnDataType, Expression, Kysely, Transaction } from 'kysely';
import type { ValueEncoding } from './codec.js';
import type { ChangeFeed, FeedContext } from './poller.js';
import type { Database } from './schema.js';

/** A column type: a name Kysely knows, or raw SQL such as `text collate "C"`. */
export type DataTypeExpression = ColumnDataType | Expression<unknown>;

/** Column types that differ between databases; the migrations are otherwise written once. */
export interface DdlFlavour {
  /**
   * Type of key and name columns. Ordered lists must sort like the memory store (by code point): SQLite's BINARY
   * collation does, Postgres needs `COLLATE "C"` (its default collation is locale-aware).
   */
  readonly text: DataTypeExpression;
  /** An auto-incrementing 64-bit key that keeps insertion order. */
  readonly sequenceType: DataTypeExpression;
  /**
   * How the sequence increments: SQLite's `integer primary key` is the rowid itself (no AUTOINCREMENT needed, since
   * events are never deleted from the middle); Postgres uses an identity column.
   */
  readonly sequence: 'rowid' | 'identity';
  /**
   * Fillfactor of tables whose rows are overwritten in place (the check ring): room left on each page keeps updates
   * on the page (Postgres HOT), so space is reused without a vacuum. SQLite rewrites pages in place and needs none.
   */
  readonly fillfactor?: number;
}

/**
 * Everything in which the Kysely-backed stores differ. The repositories, migrations, dump and notice plumbing are
 * shared; a dialect says only how its database isolates transactions, carries notices to other processes, encodes
 * values and reports errors.
 */
export interface KyselyStoreDialect {
  /** `Storage.kind`. */
  readonly kind: string;
  readonly encoding: ValueEncoding;
  readonly ddl: DdlFlavour;
  /** Schema of Kysely's migration tables (Postgres: the store's schema, since Kysely looks tables up by name). */
  readonly migrationTableSchema?: string;

  /**
   * Runs `fn` in one transaction that is serialisable with every other transaction on the database, from any
   * process. Kysely's `db.transaction()` is the building block; the dialect adds its locking and retries.
   */
  transaction<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>, options?: TransactionOptions): Promise<T>;

  /**
   * Inside a transaction: takes the store-wide lock `name` for the rest of it if no other process holds it, and
   * resolves whether it did (Postgres: `pg_try_advisory_xact_lock`). Omitted where one process owns the store.
   */
  tryLock?(trx: Transaction<Database>, name: string): Promise<boolean>;

  /** `Storage.appendConcurrency`: how many append-only transactions the database runs side by side usefully. */
  readonly appendConcurrency?: number;

  /**
   * Hands notices to other processes from inside the transaction, just before commit, so the database drops them on
   * rollback (Postgres: `pg_notify`). Omitted when notices stay in-process. Called with the root connection (outside a
   * transaction) by `Storage.publishChange`.
   */
  sendNotices?(db: Kysely<Database>, notices: readonly ChangeNotice[], explicit: boolean): Promise<void>;

  /** Runs `fn` (the migrator) with exclusive access across processes; Postgres also creates its schema here. */
  withMigrationLock<T>(db: Kysely<Database>, fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;

  /** Unique violation → ConflictError, lost connection → StorageUnavailableError; anything else unchanged. */
  mapError(error: unknown): unknown;

  /** Delivery of other processes' changes (LISTEN, polling). Created once per store; started by migrate/onChange. */
  createFeed?(context: FeedContext): ChangeFeed;
}
