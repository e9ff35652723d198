/** The only way Flagmount writes anything out: the host injects it (pino, console wrapper, …). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const noop = () => {};
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

/** Accepts pino/bunyan-style loggers (`(fields, message)`) as well as `(message, fields)` ones. */
export function normalizeLogger(logger: Partial<Logger> | undefined): Logger {
  if (!logger) return silentLogger;
  const wrap = (level: keyof Logger) => {
    const fn = logger[level]?.bind(logger);
    if (!fn) return noop;
    return (message: string, fields?: Record<string, unknown>) => {
      try {
        if (fields === undefined) fn(message);
        else fn(message, fields);
      } catch {
        // A broken logger must never break a request.
      }
    };
  };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
