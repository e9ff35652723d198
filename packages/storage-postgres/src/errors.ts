import { ConflictError, NotFoundError, StorageUnavailableError } from '@flagmount/core';

/** SQLSTATEs meaning "the database cannot do work right now" (see the PostgreSQL errcodes appendix). */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown: our backend was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '57014', // query_canceled (statement_timeout, or cancelled by an operator)
  '25P03', // idle_in_transaction_session_timeout: the server ended a session that stalled mid-transaction
  '55P03', // lock_not_available (lock_timeout)
  '25006', // read_only_sql_transaction: connected to a hot standby
  '28000', // invalid_authorization_specification
  '28P01', // invalid_password
  '3D000', // invalid_catalog_name: the database is gone
  '40001', // serialization_failure, once our retries are spent
  '40P01', // deadlock_detected, likewise
]);
const UNAVAILABLE_CLASSES = ['08', '53', '58']; // connection exception, insufficient resources, system error

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|after calling end on the pool|driver has already been destroyed|Client was closed/i;

export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function mapPostgresError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error instanceof ConflictError || error instanceof NotFoundError || error instanceof StorageUnavailableError) {
    return error;
  }
  const state = sqlState(error);
  if (state === '23505') {
    const detail = (error as { detail?: unknown }).detail;
    return new ConflictError(typeof detail === 'string' ? detail : 'a row with this key already exists', { cause: error });
  }
  const code = (error as { code?: unknown }).code;
  if (
    (state && (UNAVAILABLE_STATES.has(state) || UNAVAILABLE_CLASSES.includes(state.slice(0, 2)))) ||
    (typeof code === 'string' && NETWORK_CODES.has(code)) ||
    UNAVAILABLE_MESSAGES.test(error.message) ||
    (error instanceof AggregateError && error.errors.some((inner) => mapPostgresError(inner) instanceof StorageUnavailableError))
  ) {
    return new StorageUnavailableError(`PostgreSQL is unavailable: ${error.message || String(code ?? 'connection failed')}`, {
      cause: error,
    });
  }
  return error;
}
