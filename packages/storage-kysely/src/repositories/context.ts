import type { Kysely } from 'kysely';
import type { ValueEncoding } from '../codec.js';
import type { Database } from '../schema.js';

/** What every repository runs on. */
export interface RepoContext {
  /** The connection for the next statement (a transaction's, or the root pool/connection). */
  db(): Kysely<Database>;
  readonly enc: ValueEncoding;
  /**
   * Runs a multi-statement write atomically: within the open transaction when there is one, otherwise in its own
   * (serialised like any other) transaction.
   */
  atomic<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;
}

/** Rows a write touched, from whichever counter the driver filled in. */
export function affected(result: {
  numUpdatedRows?: bigint;
  numDeletedRows?: bigint;
  numInsertedOrUpdatedRows?: bigint;
}): number {
  return Number(result.numUpdatedRows ?? result.numDeletedRows ?? result.numInsertedOrUpdatedRows ?? 0n);
}

/**
 * Splits bulk writes: SQLite caps bound parameters at 32766 and Postgres at 65535, and one huge statement also
 * holds locks longer than several small ones.
 */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows per multi-row INSERT, given the columns per row, well under either database's parameter limit. */
export function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.floor(16_000 / columns));
}

/** The columns an upsert overwrites, taken from the row being written. */
export function pick<T extends object>(row: T, columns: readonly string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const column of columns) out[column] = (row as Record<string, unknown>)[column];
  return out as Partial<T>;
}
