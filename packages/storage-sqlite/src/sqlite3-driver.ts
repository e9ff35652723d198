import {
  CompiledQuery,
  DeleteQueryNode,
  InsertQueryNode,
  SelectQueryNode,
  UpdateQueryNode,
  createQueryId,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type RootOperationNode,
} from 'kysely';
import type { Sqlite3Database, Sqlite3DialectConfig, Sqlite3RunResult } from './sqlite3-dialect-config.js';
import { savepointCommand } from './savepoint.js';
import { StatementCache } from './statement-cache.js';

/**
 * A Kysely driver over one asynchronous `sqlite3` connection. Like Kysely's own SqliteDriver, every query and every
 * transaction holds the single connection through a mutex: SQLite allows one writer anyway, and serialising in
 * process means a transaction never sees another caller's statements interleaved with its own.
 */
export class Sqlite3Driver implements Driver {
  readonly #config: Sqlite3DialectConfig;
  readonly #mutex = new ConnectionMutex();
  #db: Sqlite3Database | undefined;
  #connection: Sqlite3Connection | undefined;
  #destroyed = false;

  constructor(config: Sqlite3DialectConfig) {
    this.#config = Object.freeze({ ...config });
  }

  async init(): Promise<void> {
    const { database } = this.#config;
    this.#db = typeof database === 'function' ? await database() : database;
    this.#connection = new Sqlite3Connection(this.#db);
    try {
      await this.#config.onCreateConnection?.(this.#connection);
    } catch (error) {
      // Kysely retries init on the next query; close this handle rather than leak one per attempt.
      const db = this.#db;
      this.#db = undefined;
      this.#connection = undefined;
      await new Promise<void>((resolve) => db.close(() => resolve()));
      throw error;
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    if (this.#destroyed || !this.#connection) {
      this.#mutex.unlock();
      throw Object.assign(new Error('SQLITE_MISUSE: the database is closed'), { code: 'SQLITE_MISUSE' });
    }
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // IMMEDIATE takes the write lock up front. A deferred transaction that reads first and writes later fails with
    // SQLITE_BUSY (no waiting) when another process committed in between; waiting at BEGIN is what busy_timeout
    // can handle. Isolation settings are moot: with one connection and one writer, transactions are serial.
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (error) {
      // After SQLITE_FULL, IOERR, NOMEM or a busy deadlock SQLite may have rolled the transaction back itself. The
      // ROLLBACK then fails, and Kysely would throw that error instead of the one that says what went wrong.
      if (!(error instanceof Error && /no transaction is active/i.test(error.message))) throw error;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compile(savepointCommand('savepoint', name), createQueryId()));
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await connection.executeQuery(compile(savepointCommand('rollback to', name), createQueryId()));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compile(savepointCommand('release', name), createQueryId()));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    // Waits for the query or transaction in progress: closing under it would fail it half-way.
    await this.#mutex.lock();
    this.#destroyed = true;
    try {
      const db = this.#db;
      await this.#connection?.statements?.clear();
      if (db) await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
    } finally {
      this.#mutex.unlock();
    }
  }
}

const DML = /^\s*(insert|update|delete|replace)\b/i;
/**
 * Statements worth keeping prepared: queries and writes. Transaction control, PRAGMAs and DDL run once or change
 * what a kept statement would mean, so they are prepared per call as before.
 */
const KEEP = /^\s*(select|insert|update|delete|replace|with)\b/i;
const RETURNING = /\breturning\b/i;

/** Whether a query yields rows (`all`) or only a change count (`run`): `sqlite3` reports one or the other. */
function returnsRows(query: RootOperationNode | undefined, sql: string): boolean {
  if (!query) return !DML.test(sql) || RETURNING.test(sql);
  if (SelectQueryNode.is(query)) return true;
  if (InsertQueryNode.is(query) || UpdateQueryNode.is(query) || DeleteQueryNode.is(query)) {
    return query.returning !== undefined;
  }
  // Raw SQL (PRAGMAs, DDL, hand-written statements): judged by its text.
  return !DML.test(sql) || RETURNING.test(sql);
}

class Sqlite3Connection implements DatabaseConnection {
  /** Absent when the database object has no `prepare` (a minimal stand-in): then every query prepares anew. */
  readonly statements: StatementCache | undefined;

  constructor(private readonly db: Sqlite3Database) {
    this.statements = typeof db.prepare === 'function' ? new StatementCache(db) : undefined;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, query } = compiledQuery;
    const parameters = [...compiledQuery.parameters];
    const statements = this.statements;
    if (statements && KEEP.test(sql)) {
      if (returnsRows(query, sql)) return { rows: await statements.all<R>(sql, parameters) };
      const result = await statements.run(sql, parameters);
      return {
        numAffectedRows: BigInt(result.changes ?? 0),
        insertId: result.lastID === undefined || result.lastID === null ? undefined : BigInt(result.lastID),
        rows: [],
      };
    }
    if (returnsRows(query, sql)) {
      return new Promise((resolve, reject) => {
        this.db.all(sql, parameters, (err, rows) => (err ? reject(err) : resolve({ rows: rows as R[] })));
      });
    }
    return new Promise((resolve, reject) => {
      this.db.run(sql, parameters, function (this: Sqlite3RunResult, err) {
        if (err) return reject(err);
        resolve({
          numAffectedRows: BigInt(this.changes ?? 0),
          insertId: this.lastID === undefined || this.lastID === null ? undefined : BigInt(this.lastID),
          rows: [],
        });
      });
    });
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) {
      throw new Error('Sqlite3 driver only supports streaming of select queries');
    }
    // sqlite3's `each` has no back-pressure, so reading everything first is no worse and keeps the mutex short.
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

/** A FIFO lock: callers get the connection in the order they asked, so a steady stream of reads cannot starve a write. */
class ConnectionMutex {
  #locked = false;
  readonly #waiters: (() => void)[] = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}
