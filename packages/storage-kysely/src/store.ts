import {
  StorageUnavailableError,
  TransactionScope,
  type ChangeListener,
  type ChangeNotice,
  type Storage,
  type Transaction,
  type TransactionOptions,
} from '@flagmount/core';
import { Migrator, sql, type Kysely } from 'kysely';
import type { KyselyStoreDialect } from './dialect.js';
import { dumpAll } from './dump.js';
import { describeError, toLogger, type StorageLogger } from './logger.js';
import { MIGRATION_LOCK_TABLE, MIGRATION_TABLE, migrationProvider } from './migrations/index.js';
import { ChangeHub } from './notices.js';
import type { ChangeFeed } from './poller.js';
import { createRepositories, mapRepositoryErrors, type RepoContext } from './repositories/index.js';
import { pruneOld } from './repositories/prune.js';
import type { Database } from './schema.js';

export interface KyselyStorageOptions {
  logger?: Partial<StorageLogger>;
}

/** The transaction the current async call chain runs in, if any. */
interface Scope {
  active: boolean;
}

/**
 * A `Storage` over any Kysely database; the dialect supplies what differs between databases. Takes ownership of
 * `db`: `close()` destroys it.
 */
export function kyselyStorage(db: Kysely<Database>, dialect: KyselyStoreDialect, options: KyselyStorageOptions = {}): Storage {
  const logger = toLogger(options.logger);
  const hub = new ChangeHub(logger);
  const scopes = new TransactionScope<Scope>();
  const mapError = (error: unknown) => dialect.mapError(error);
  let closing: Promise<void> | undefined;

  const open = (): Kysely<Database> => {
    if (closing) throw new StorageUnavailableError(`${dialect.kind} storage is closed`);
    return db;
  };
  /** The unfinished transaction of this store the current call chain runs in, if any. */
  const currentScope = (): Scope | undefined => {
    const scope = scopes.current();
    return scope?.active ? scope : undefined;
  };

  // Root repositories always work outside any transaction, even when called from inside `transaction(fn)`: such a
  // read must see committed state only (it waits for the transaction on SQLite; reads the last commit on Postgres).
  const rootContext: RepoContext = {
    db: open,
    enc: dialect.encoding,
    atomic: (fn) => dialect.transaction(open(), fn),
  };
  const repositories = mapRepositoryErrors(createRepositories(rootContext), mapError);

  const feed: ChangeFeed | undefined = dialect.createFeed?.({
    hub,
    logger,
    db: open,
    async listVersions() {
      const rows = await open().selectFrom('environments').select(['id', 'flag_state_version']).orderBy('id').execute();
      return rows.map((row) => ({ envId: row.id, version: Number(row.flag_state_version) }));
    },
  });
  let feedStarted: Promise<void> | undefined;
  const startFeed = (): Promise<void> => {
    if (!feed || closing) return Promise.resolve();
    feedStarted ??= feed.start().catch((error: unknown) => {
      logger.warn(`${dialect.kind} change feed failed to start`, describeError(error));
    });
    return feedStarted;
  };

  async function transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
    if (currentScope()) {
      // It would wait for the very transaction it runs in (SQLite's one connection, Postgres' transaction lock).
      throw new Error(`${dialect.kind} storage: transaction() called inside a transaction; use its \`tx\` argument instead`);
    }
    let notices: ChangeNotice[] = [];
    let result: T;
    try {
      result = await dialect.transaction(open(), async (trx) => {
        // The dialect may run this more than once (a retried deadlock); each attempt starts afresh.
        const queued: ChangeNotice[] = [];
        const scope: Scope = { active: true };
        // A `tx` kept past its transaction (a stray promise) must fail loudly, not write outside any transaction.
        const live = () => {
          if (!scope.active) throw new Error(`${dialect.kind} storage: this transaction has already finished`);
          return trx;
        };
        const context: RepoContext = { db: live, enc: dialect.encoding, atomic: (inner) => inner(live()) };
        const tx: Transaction = {
          ...mapRepositoryErrors(createRepositories(context), mapError),
          publishChange(envId, version) {
            live();
            queued.push({ envId, version });
          },
        };
        try {
          const value = await scopes.run(scope, () => fn(tx));
          if (queued.length > 0 && dialect.sendNotices) await dialect.sendNotices(trx, queued, false);
          notices = queued;
          return value;
        } finally {
          scope.active = false;
        }
      }, options);
    } catch (error) {
      throw mapError(error);
    }
    // After commit, never before: a listener that reloads must find the committed state.
    for (const notice of notices) hub.emit(notice, 'commit');
    return result;
  }

  const provider = migrationProvider(dialect.ddl);

  /** Whether every migration is already recorded: then `migrate()` needs neither the lock nor Kysely's introspection. */
  async function upToDate(): Promise<boolean> {
    try {
      const table = dialect.migrationTableSchema ? `${dialect.migrationTableSchema}.${MIGRATION_TABLE}` : MIGRATION_TABLE;
      const rows = await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(open());
      const done = new Set(rows.rows.map((row) => row.name));
      return Object.keys(await provider.getMigrations()).every((name) => done.has(name));
    } catch {
      return false; // no migration table yet: the full path creates it
    }
  }

  async function migrate(): Promise<void> {
    try {
      if (!(await upToDate())) await runMigrations();
    } catch (error) {
      throw mapError(error);
    }
    // Only now: the feed reads tables the migration creates, and `migrate()` resolving means "ready to listen".
    await startFeed();
  }

  async function runMigrations(): Promise<void> {
    await dialect.withMigrationLock(open(), async (connection) => {
      const migrator = new Migrator({
        db: connection,
        provider,
        migrationTableName: MIGRATION_TABLE,
        migrationLockTableName: MIGRATION_LOCK_TABLE,
        ...(dialect.migrationTableSchema ? { migrationTableSchema: dialect.migrationTableSchema } : {}),
      });
      const { error, results } = await migrator.migrateToLatest();
      for (const result of results ?? []) {
        const details = { migration: result.migrationName, status: result.status };
        if (result.status === 'Success') logger.info(`${dialect.kind} storage migrated`, details);
        else logger.error(`${dialect.kind} storage migration did not apply`, details);
      }
      if (error) throw error;
    });
  }

  const storage: Storage = {
    kind: dialect.kind,
    ...repositories,
    migrate,
    transaction,
    ...(dialect.appendConcurrency ? { appendConcurrency: dialect.appendConcurrency } : {}),
    onChange(listener: ChangeListener) {
      const unsubscribe = hub.subscribe(listener);
      void startFeed();
      return unsubscribe;
    },
    async publishChange(envId, version) {
      const notice = { envId, version };
      if (dialect.sendNotices) {
        try {
          await dialect.sendNotices(open(), [notice], true);
        } catch (error) {
          throw mapError(error);
        }
      }
      hub.emit(notice, 'explicit');
    },
    async pruneEvents(before, limit) {
      if (limit <= 0) return 0;
      try {
        // Beside ingestion (old rows are not what it writes); on a shared store, one process at a time.
        return await dialect.transaction(
          open(),
          async (trx) => ((await dialect.tryLock?.(trx, 'prune')) === false ? 0 : pruneOld(trx, before, limit)),
          { appendOnly: true },
        );
      } catch (error) {
        throw mapError(error);
      }
    },
    async dump() {
      try {
        // In one transaction, so the dump is a consistent snapshot even while others write.
        return await dialect.transaction(open(), (trx) => dumpAll(trx));
      } catch (error) {
        throw mapError(error);
      }
    },
    close() {
      closing ??= (async () => {
        await feed?.close();
        await db.destroy();
      })().catch((error: unknown) => {
        logger.warn(`${dialect.kind} storage did not close cleanly`, describeError(error));
      });
      return closing;
    },
  };
  return storage;
}
