import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
} from 'kysely';
import type { Sqlite3DialectConfig } from './sqlite3-dialect-config.js';
import { Sqlite3Driver } from './sqlite3-driver.js';

/**
 * Kysely's SqliteAdapter, except that it admits SQLite's transactional DDL. Kysely's Migrator then runs the
 * migrations in one transaction (BEGIN IMMEDIATE in our driver), which is what makes two processes migrating the
 * same file safe: the second waits for the write lock, then finds the migrations recorded and does nothing. (The
 * stock adapter's migration lock is a no-op that relies on a single connection — true within one process only.)
 */
export class Sqlite3Adapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * SQLite dialect on the asynchronous [sqlite3](https://github.com/TryGhost/node-sqlite3) package. Kysely's built-in
 * SqliteDialect expects a synchronous better-sqlite3-style database; this one reuses its query compiler,
 * introspector and adapter and brings only an asynchronous driver.
 *
 * ```ts
 * new Kysely<DB>({ dialect: new Sqlite3Dialect({ database: async () => openDatabase('app.db') }) })
 * ```
 */
export class Sqlite3Dialect implements Dialect {
  readonly #config: Sqlite3DialectConfig;

  constructor(config: Sqlite3DialectConfig) {
    this.#config = Object.freeze({ ...config });
  }

  createDriver(): Driver {
    return new Sqlite3Driver(this.#config);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new Sqlite3Adapter();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
