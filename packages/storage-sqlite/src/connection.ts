import { describeError, type StorageLogger } from '@flagmount/storage-kysely';
import { CompiledQuery, type DatabaseConnection } from 'kysely';
import sqlite3 from 'sqlite3';
import type { Sqlite3Database } from './sqlite3-dialect-config.js';

export const isMemory = (filename: string) => filename === ':memory:' || filename === '';

export function openDatabase(filename: string, logger: StorageLogger): Promise<Sqlite3Database> {
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
export async function configureConnection(
  connection: DatabaseConnection,
  { filename, busyTimeoutMs, logger }: { filename: string; busyTimeoutMs: number; logger: StorageLogger },
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
