/** The spec's error codes (management-api.md, "Errors"), used by the runtime API too. */
export type ErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'not_possible'
  | 'not_allowed'
  | 'not_available'
  | 'unknown_error'
  | 'unauthorized'
  | 'unauthenticated';

export type Issues = Record<string, string[]>;

/** A 4xx/5xx that a route or service throws on purpose; the handler turns it into the spec's error body. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: Issues,
  ) {
    super(message);
  }
}

export const invalidRequest = (message: string, issues?: Issues) => new HttpError(400, 'invalid_request', message, issues);
/** A 400 about the request as a whole (its body, its path): the message is also the issue at the root path `""`. */
export const invalidRequestAtRoot = (message: string) => invalidRequest(message, { '': [message] });
export const notPossible = (message: string, issues?: Issues) => new HttpError(400, 'not_possible', message, issues);
export const notFound = (what: string) => new HttpError(404, 'not_found', `${what} not found`);
export const unauthenticated = (message = 'A valid management API key is required') =>
  new HttpError(401, 'unauthenticated', message);
export const unauthorized = (message: string) => new HttpError(403, 'unauthorized', message);
export const notAvailable = (message: string) => new HttpError(503, 'not_available', message);

/**
 * Adds one message under a dotted field path. The path comes from the request (`__proto__`, `constructor`), so it
 * is read and written as an own property only: `issues.__proto__` must not reach Object.prototype.
 */
export function addIssue(issues: Issues, path: string, message: string): Issues {
  if (Object.hasOwn(issues, path)) issues[path]!.push(message);
  else Object.defineProperty(issues, path, { value: [message], enumerable: true, writable: true, configurable: true });
  return issues;
}

/** Whether `issues` already holds `message` under `path` (own properties only, see `addIssue`). */
export const hasIssue = (issues: Issues, path: string, message: string): boolean =>
  Object.hasOwn(issues, path) && issues[path]!.includes(message);
