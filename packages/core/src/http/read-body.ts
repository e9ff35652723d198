import { HttpError, invalidRequest, invalidRequestAtRoot } from './http-error.js';
import type { CoreRequest } from './types.js';
import { wellFormed, wellFormedJson } from './well-formed.js';

/**
 * A body that is not JSON. A 400 rather than HTTP's 415: the specs answer every invalid body with 400, and
 * architecture.md's status table has no 415.
 */
export function notJsonError(): HttpError {
  return invalidRequestAtRoot('Content-Type must be application/json');
}

const notValidJsonError = () => invalidRequestAtRoot('Request body is not valid JSON');

/** A body over the mount's limit, found while reading it (an adapter's or the core's own reader). */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/**
 * The error for a body that could not even be read: too large, a broken stream, or a body a framework's own parser
 * refused (Express/Koa body parsers and Fastify's content-type parsers put the HTTP status on the error). The
 * bodies match what the core answers for the same problem when it reads the body itself.
 */
export function unreadableBodyError(error: unknown): HttpError {
  const status = statusOf(error);
  if (error instanceof BodyTooLargeError || status === 413) return new HttpError(413, 'invalid_request', 'Request body is too large');
  if (status === 415) return notJsonError();
  if (status === 400) return notValidJsonError();
  return new HttpError(400, 'invalid_request', 'Could not read the request body');
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' ? value : undefined;
}

/**
 * Deepest nesting a JSON request body may have. Nothing in the API needs more (a targeting filter a person writes
 * is a few levels deep), and a deeper value, once stored, breaks recursive code far from the request that sent it:
 * cloning, serialising, validating, `storage.dump()`.
 */
export const MAX_BODY_DEPTH = 64;

/**
 * What no body may hold: nesting deeper than `max`, or a number JSON.parse read as ±Infinity (`1e400`), which no
 * store keeps (it would be acknowledged and then read back as null). Iterative, so that the check itself cannot
 * overflow the stack.
 */
function bodyProblem(value: unknown, max: number): 'deep' | 'number' | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'number';
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return 'deep';
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
      else if (typeof child === 'number' && !Number.isFinite(child)) return 'number';
    }
  }
  return undefined;
}

/** The dotted path of the first non-finite number in `value` (which `bodyProblem` found not too deep). */
function infinitePath(value: unknown, path: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = infinitePath(child, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A request's JSON body: `undefined` when there is none, else the parsed value with every string well-formed.
 * Throws the 400 (or 413) for a body that is not JSON, too large, too deep.
 */
export function readBody(request: CoreRequest, maxBytes: number): unknown {
  const body = request.body;
  if (body.kind === 'none') return undefined;
  if (body.kind === 'unreadable') throw unreadableBodyError(body.error);
  // No Content-Type at all is read as JSON (the specs' clients always send one); an empty one is not JSON.
  const type = body.contentType ?? request.headers['content-type'];
  if (type !== undefined && !type.toLowerCase().includes('json')) throw notJsonError();
  let value: unknown;
  if (body.kind === 'parsed') value = body.value;
  else {
    // The bytes are read as they came: a compressed body would be read as broken JSON, or a mislabelled plain
    // one accepted. A host parser that inflates (Express's, Koa's) hands over a parsed body instead.
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      const message = `Content-Encoding ${encoding} is not supported: send the body uncompressed`;
      throw invalidRequestAtRoot(message);
    }
    if (Buffer.byteLength(body.text) > maxBytes) {
      // 413 says what happened; the code stays within the spec's list.
      throw new HttpError(413, 'invalid_request', `Request body exceeds ${maxBytes} bytes`);
    }
    // A byte order mark may be ignored (RFC 8259, 8.1); Fastify's parser does, so every framework does.
    const text = body.text.charCodeAt(0) === 0xfeff ? body.text.slice(1) : body.text;
    if (!text.trim()) return undefined;
    try {
      value = JSON.parse(text);
    } catch {
      throw notValidJsonError();
    }
  }
  const problem = bodyProblem(value, MAX_BODY_DEPTH);
  if (problem === 'deep') {
    const message = `Request body is nested deeper than ${MAX_BODY_DEPTH} levels`;
    throw invalidRequestAtRoot(message);
  }
  if (problem === 'number') {
    const message = 'Number out of range (beyond ±1.8e308)';
    throw invalidRequest(message, { [infinitePath(value, '')!]: [message] });
  }
  return body.kind === 'raw' ? wellFormedJson(body.text, value) : wellFormed(value);
}
