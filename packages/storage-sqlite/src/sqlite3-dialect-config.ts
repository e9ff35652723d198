import type { DatabaseConnection } from 'kysely';

/**
 * Config of {@link Sqlite3Dialect}, shaped like Kysely's own `SqliteDialectConfig` but for the asynchronous
 * `sqlite3` package.
 */
export interface Sqlite3DialectConfig {
  /**
   * An open `sqlite3` database, or a function that opens one. A function is called on the first query (and
   * again on the next query if opening failed), so constructing a store touches no file.
   * `Kysely.destroy()` closes the database either way.
   */
  database: Sqlite3Database | (() => Promise<Sqlite3Database>);
  /** Runs once on the connection before any other query: the place for PRAGMAs. */
  onCreateConnection?: (connection: DatabaseConnection) => Promise<void>;
}

/** `this` of a `run` callback: what the statement changed. */
export interface Sqlite3RunResult {
  lastID: number;
  changes: number;
}

/**
 * The subset of `sqlite3`'s `Database` the driver uses; structural, so the types of `sqlite3` itself stay out of
 * this package's public types.
 */
export interface Sqlite3Database {
  all(sql: string, params: unknown[], callback: (err: Error | null, rows: unknown[]) => void): unknown;
  run(sql: string, params: unknown[], callback: (this: Sqlite3RunResult, err: Error | null) => void): unknown;
  /** When present, statements are prepared once and kept (see statement-cache.ts). */
  prepare?(sql: string, callback: (err: Error | null) => void): Sqlite3Statement;
  close(callback: (err: Error | null) => void): void;
}

/** The subset of `sqlite3`'s `Statement` the driver uses. */
export interface Sqlite3Statement {
  all(params: unknown[], callback: (err: Error | null, rows: unknown[]) => void): unknown;
  run(params: unknown[], callback: (this: Sqlite3RunResult, err: Error | null) => void): unknown;
  finalize(callback: (err: Error | null) => void): unknown;
}
