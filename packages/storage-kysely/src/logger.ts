import { normalizeLogger, type LogFunction } from '@flagmount/core';

/** The logger a store reports through. Stores never write to the console; the default drops everything. */
export interface StorageLogger {
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

const noop = () => {};

export const silentLogger: StorageLogger = { debug: noop, info: noop, warn: noop, error: noop };

/**
 * The store's logger from what the host gave, as the core reads its own (`normalizeLogger`): gaps filled with
 * no-ops, pino's `(fields, message)` order and one-function loggers understood, and a logger that throws ignored.
 * The store logs from driver callbacks (a Postgres client's 'error' event), where a throw would crash the host.
 */
export function toLogger(logger?: Partial<StorageLogger> | LogFunction): StorageLogger {
  return normalizeLogger(logger);
}

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return code === undefined ? { error: error.message } : { error: error.message, code };
  }
  return { error: String(error) };
}
