import { ConflictError, NotFoundError, StorageUnavailableError } from '@flagmount/core';

/**
 * Result codes that mean "the database cannot do work right now", not "this request is wrong": the core answers
 * 503 and keeps serving flags from memory. (node-sqlite3 reports primary result codes only.)
 */
const UNAVAILABLE = new Set([
  'SQLITE_BUSY', // another process held the lock past busy_timeout
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_PROTOCOL',
  'SQLITE_NOMEM',
  'SQLITE_MISUSE', // the database was closed under the caller
]);

export function mapSqliteError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error instanceof ConflictError || error instanceof NotFoundError || error instanceof StorageUnavailableError) {
    return error;
  }
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_CONSTRAINT' && /UNIQUE constraint failed|PRIMARY KEY must be unique/i.test(error.message)) {
    const columns = /constraint failed: (.*)$/i.exec(error.message)?.[1];
    return new ConflictError(columns ? `a row with this key already exists (${columns})` : 'a row with this key already exists', {
      cause: error,
    });
  }
  if (typeof code === 'string' && UNAVAILABLE.has(code)) {
    return new StorageUnavailableError(`SQLite is unavailable: ${error.message}`, { cause: error });
  }
  if (/driver has already been destroyed/i.test(error.message)) {
    return new StorageUnavailableError('SQLite storage is closed', { cause: error });
  }
  return error;
}
