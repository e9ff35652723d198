/** The only way Flagmount writes anything out: the host injects it (pino, console wrapper, …). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const noop = () => {};
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

/** One function for every level, called `(message, fields, level)`: the smallest logger a host can hand over. */
export type LogFunction = (message: string, fields: Record<string, unknown> | undefined, level: keyof Logger) => void;

/**
 * pino and bunyan take the fields first (`info(fields, message)`); given `(message, fields)` they drop the fields.
 * Both have `child()`; pino has `bindings()`, bunyan `fields`.
 */
function fieldsFirst(logger: object): boolean {
  const l = logger as { child?: unknown; bindings?: unknown; fields?: unknown };
  return typeof l.child === 'function' && (typeof l.bindings === 'function' || (typeof l.fields === 'object' && l.fields !== null));
}

/**
 * The host's logger as Flagmount calls it: an object with level methods (`console`, winston and the like, called
 * `(message, fields)`; pino and bunyan, called `(fields, message)`), or one function for every level. A logger that
 * throws never breaks a request.
 */
export function normalizeLogger(logger: Partial<Logger> | LogFunction | undefined): Logger {
  if (!logger) return silentLogger;
  const guarded = (call: (message: string, fields?: Record<string, unknown>) => void) => (message: string, fields?: Record<string, unknown>) => {
    try {
      call(message, fields);
    } catch {
      // A broken logger must never break a request.
    }
  };
  if (typeof logger === 'function') {
    const at = (level: keyof Logger) => guarded((message, fields) => logger(message, fields, level));
    return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  }
  const swapped = fieldsFirst(logger);
  const wrap = (level: keyof Logger) => {
    const fn = logger[level]?.bind(logger) as ((...args: unknown[]) => void) | undefined;
    if (!fn) return noop;
    return guarded((message, fields) => {
      if (fields === undefined) fn(message);
      else if (swapped) fn(fields, message);
      else fn(message, fields);
    });
  };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
