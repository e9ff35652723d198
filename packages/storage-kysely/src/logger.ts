/** The logger a store reports through. Stores never write to the console; the default drops everything. */
export interface StorageLogger {
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

const noop = () => {};

export const silentLogger: StorageLogger = { debug: noop, info: noop, warn: noop, error: noop };

/** Accepts a partial logger (or none) and fills the gaps with no-ops, so callers never check. */
export function toLogger(logger?: Partial<StorageLogger>): StorageLogger {
  if (!logger) return silentLogger;
  const bind = (level: keyof StorageLogger) =>
    typeof logger[level] === 'function' ? (logger[level] as StorageLogger[typeof level]).bind(logger) : noop;
  return { debug: bind('debug'), info: bind('info'), warn: bind('warn'), error: bind('error') };
}

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return code === undefined ? { error: error.message } : { error: error.message, code };
  }
  return { error: String(error) };
}
