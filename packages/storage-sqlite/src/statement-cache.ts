import type { Sqlite3Database, Sqlite3RunResult, Sqlite3Statement } from './sqlite3-dialect-config.js';

/** Distinct SQL texts kept prepared; Kysely writes one text per query shape, so a store uses a few dozen. */
const MAX_STATEMENTS = 128;

/**
 * Prepared statements of one connection, by SQL text, least recently used first out.
 *
 * `Database#all` / `#run` prepare, run and finalise a new statement per call: three round trips through the
 * thread pool and a new native object, which measured about 130 µs of CPU for a one-row lookup by key (the remote
 * context read behind every evaluation whose user is not cached). A kept statement is bound and stepped again:
 * one round trip. The driver's mutex runs one query at a time on the connection, so a statement is never in two
 * queries at once, and none is running when one is finalised.
 */
export class StatementCache {
  readonly #statements = new Map<string, Sqlite3Statement>();

  constructor(private readonly db: Sqlite3Database) {}

  all<R>(sql: string, parameters: unknown[]): Promise<R[]> {
    return this.#with(sql, (statement) =>
      new Promise((resolve, reject) => statement.all(parameters, (err, rows) => (err ? reject(err) : resolve(rows as R[])))),
    );
  }

  run(sql: string, parameters: unknown[]): Promise<Sqlite3RunResult> {
    return this.#with(sql, (statement) =>
      new Promise((resolve, reject) =>
        statement.run(parameters, function (this: Sqlite3RunResult, err) {
          if (err) reject(err);
          else resolve({ lastID: this.lastID, changes: this.changes });
        }),
      ),
    );
  }

  /** Finalises every statement: SQLite refuses to close a database with statements still open. */
  async clear(): Promise<void> {
    const statements = [...this.#statements.values()];
    this.#statements.clear();
    await Promise.all(statements.map(finalize));
  }

  async #with<T>(sql: string, use: (statement: Sqlite3Statement) => Promise<T>): Promise<T> {
    let statement = this.#statements.get(sql);
    if (statement) {
      // Most recently used last, so the first entry is the one to evict.
      this.#statements.delete(sql);
    } else {
      statement = await this.#prepare(sql);
      if (this.#statements.size >= MAX_STATEMENTS) {
        const [oldestSql, oldest] = this.#statements.entries().next().value as [string, Sqlite3Statement];
        this.#statements.delete(oldestSql);
        await finalize(oldest);
      }
    }
    this.#statements.set(sql, statement);
    try {
      return await use(statement);
    } catch (error) {
      // A statement that failed (a constraint, a disk error) is not trusted again: the next query prepares afresh.
      if (this.#statements.get(sql) === statement) this.#statements.delete(sql);
      await finalize(statement);
      throw error;
    }
  }

  #prepare(sql: string): Promise<Sqlite3Statement> {
    return new Promise((resolve, reject) => {
      // With a callback, a statement that fails to prepare reports here instead of emitting 'error'.
      const statement = this.db.prepare!(sql, (err) => (err ? reject(err) : resolve(statement)));
    });
  }
}

const finalize = (statement: Sqlite3Statement) => new Promise<void>((resolve) => statement.finalize(() => resolve()));
