import { CliError, EXIT } from '../errors.js';

/** One management API call, whatever carries it (fetch to a mount, or the core's handler in this process). */
export interface Api {
  /** Answers the parsed JSON body of a 2xx; throws a `CliError` for anything else. */
  request<T = unknown>(method: string, path: string, options?: { query?: Record<string, string>; body?: unknown }): Promise<T>;
  /** Where this talks to, for messages: `http://host/flags` or `./flags.db`. */
  readonly target: string;
  close(): Promise<void>;
}

interface ErrorBody {
  error?: { code?: string; message?: string };
  issues?: Record<string, string[]>;
}
/** The spec's error body → one line, and one line per field path when the answer lists issues. */
export function apiError(status: number, text: string, target: string): CliError {
  let body: ErrorBody | undefined;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    body = undefined;
  }
  if (!body?.error?.message) return new CliError(`${target} did not answer as a Flagmount mount (HTTP ${status})`, EXIT.unreachable);
  const { code, message } = body.error;
  const details = Object.entries(body.issues ?? {}).flatMap(([path, messages]) => messages.map((m) => `  ${path || '(document)'}: ${m}`));
  if (status === 401) return new CliError(`The management key was refused by ${target}: ${message}`, EXIT.auth);
  if (status === 403) return new CliError(`The management key may not do this: ${message}`, EXIT.auth);
  if (status >= 500) return new CliError(`${target} failed (${code}): ${message}`, EXIT.unreachable);
  const count = details.length ? ` (${details.length} problem${details.length === 1 ? '' : 's'})` : '';
  return new CliError(`${message}${count}`, EXIT.refused, details);
}
