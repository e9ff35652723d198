import { ServerResponse, validateHeaderName, validateHeaderValue, type IncomingMessage } from 'node:http';
import { errorResponse } from '../http/handler.js';
import { HttpError } from '../http/http-error.js';
import { queryPairs, queryPairsFromParsed } from '../http/query-string.js';
import { BodyTooLargeError } from '../http/read-body.js';
import type { CoreRequest, CoreResponse, RequestBody } from '../http/types.js';
import { mergeVary } from '../http/vary.js';
import type { Mount } from './mount.js';

/**
 * Helpers over Node's own http types, which every framework exposes (`req.raw`, `ctx.req`, …): adapters use them
 * so that each stays a thin translation.
 */

export { BodyTooLargeError } from '../http/read-body.js';

/** Reads the request stream as UTF-8 text, refusing more than `limit` bytes. */
export function readRawBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      // Drain what the client still sends so the 413 reaches it instead of a reset connection.
      req.resume();
      reject(new BodyTooLargeError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // A client that goes away mid-body never sends 'end': without this the request would hang forever.
    const onClose = () => onError(new Error('Request closed before its body was complete'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

const declaredLength = (req: IncomingMessage) => Number(req.headers['content-length'] ?? Number.NaN);

/**
 * The body as the core wants it: the host's parsed value if a parser really read the stream, else the raw text
 * read here (bounded), else none.
 *
 * A parser that kept the bytes (a Buffer) or the text (a string) parsed nothing: that is the raw text.
 *
 * Some parsers set an empty object without reading anything (Express 4's body-parser, `@koa/bodyparser` for a
 * content type it skips), so a parsed value counts only once the stream has been consumed; otherwise the bytes
 * are still there and are read here, and the core answers 400 exactly as with no host parser.
 *
 * Synchronous unless there are bytes to read (then a promise); a body over `limit` throws or rejects with
 * `BodyTooLargeError`. `await` it either way.
 */
export function nodeRequestBody(req: IncomingMessage, parsed: unknown, limit: number): RequestBody | Promise<RequestBody> {
  const contentType = req.headers['content-type'];
  const type = contentType !== undefined ? { contentType } : {};
  const length = declaredLength(req);
  const hasBody = req.headers['transfer-encoding'] !== undefined || length > 0;
  if (!hasBody) return { kind: 'none' };
  if (req.readableEnded) {
    if (parsed === undefined) return { kind: 'none' };
    // A host's raw or text parser (`express.raw()`, `express.text()`) read the bytes and parsed nothing: they are
    // the text, which the core parses as it would have read it.
    if (typeof parsed === 'string' || Buffer.isBuffer(parsed)) {
      const text = typeof parsed === 'string' ? parsed : parsed.toString('utf8');
      if (Buffer.byteLength(text) > limit) throw new BodyTooLargeError();
      return { kind: 'raw', text, ...type };
    }
    // The host's parser has its own limit; this mount's limit still applies (the declared length, or the
    // re-serialised value for a chunked body).
    const size = Number.isFinite(length) ? length : Buffer.byteLength(JSON.stringify(parsed) ?? '');
    if (size > limit) throw new BodyTooLargeError();
    return { kind: 'parsed', value: parsed, ...type };
  }
  return readRawBody(req, limit).then((text) => ({ kind: 'raw', text, ...type }));
}

/**
 * Builds the core request from a path+query below the mount and Node's request; given the response, its `signal`
 * follows the client's connection. `parsedQuery` is the framework's own parse of the query, used where it is
 * certain to hold the same pairs (see `queryPairsFromParsed`).
 */
export function toCoreRequest(
  req: IncomingMessage,
  pathAndQuery: string,
  body: RequestBody,
  res?: ServerResponse,
  parsedQuery?: unknown,
  hostRequest?: unknown,
): CoreRequest {
  const q = pathAndQuery.indexOf('?');
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  const text = q === -1 ? '' : pathAndQuery.slice(q + 1);
  const query = q === -1 ? [] : (parsedQuery !== undefined && queryPairsFromParsed(text, parsedQuery)) || queryPairs(text);
  const method = req.method ?? 'GET';
  return new NodeCoreRequest(UPPER.test(method) ? method : method.toUpperCase(), path || '/', query, coreHeaders(req.headers), body, res, hostRequest);
}

const UPPER = /^[A-Z]+$/;

/**
 * Node's headers as the core reads them (one string each). Node joins repeated headers itself except
 * `set-cookie`, which stays a list; only then is a copy made: copying every request's headers into a new
 * object cost ~0.4 µs of the evaluate route. The core only reads them.
 */
function coreHeaders(raw: IncomingMessage['headers']): Readonly<Record<string, string | undefined>> {
  for (const name in raw) {
    if (typeof raw[name] === 'string') continue;
    const headers: Record<string, string | undefined> = {};
    for (const key of Object.keys(raw)) {
      const value = raw[key];
      headers[key] = Array.isArray(value) ? value.join(', ') : value;
    }
    return headers;
  }
  return raw as Readonly<Record<string, string | undefined>>;
}

/**
 * A core request over Node's request. Its `signal` (aborted when the client disconnects before the response is
 * done) is made on first use: only a request that waits (`waitForVersion`) reads it, and an AbortController per
 * request is a measurable share of a fast evaluation.
 */
class NodeCoreRequest implements CoreRequest {
  #signal: AbortSignal | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly query: Array<[string, string]>,
    readonly headers: Record<string, string | undefined>,
    readonly body: RequestBody,
    private readonly res: ServerResponse | undefined,
    readonly hostRequest: unknown,
  ) {}

  get signal(): AbortSignal | undefined {
    if (this.#signal || !this.res) return this.#signal;
    const res = this.res;
    const controller = new AbortController();
    this.#signal = controller.signal;
    const abort = () => {
      if (!res.writableEnded) controller.abort();
    };
    if (res.closed) abort();
    else res.once('close', abort);
    return this.#signal;
  }
}

/**
 * Writes a core response (plain or streamed) to Node's response. Koa (`ctx.respond = false`) and Fastify
 * (`reply.hijack()`) hand streams to this too, so every framework streams SSE the same way.
 */
export function sendNodeResponse(res: ServerResponse, response: CoreResponse): void {
  if (res.headersSent) return;
  try {
    if (response.stream) sendStream(res, response);
    else sendPlain(res, response);
  } catch {
    // Never throws into the framework (an invalid header value, a socket gone): answer 500 if still possible.
    if (!res.headersSent && !res.destroyed) sendPlain(res, internalErrorResponse());
    else res.destroy();
  }
}

/**
 * Lets the core reuse a lent body (`CoreResponse.release`) once Node has handed the response to the operating
 * system. Not when someone wrapped this response's `write` or `end` (compression, a response cache): they may
 * keep the bytes past that point, so those are never reused. The core asks `writableFinished` before it reuses
 * them, rather than being told by a `'finish'` listener: with a listener per response the server spent ~78 µs of
 * CPU per evaluate request under load, without it ~70 µs (alternating runs, same process layout).
 */
export function releaseWhenSent(res: ServerResponse, response: CoreResponse): void {
  if (!response.release || res.write !== ServerResponse.prototype.write || res.end !== ServerResponse.prototype.end) return;
  response.release(() => res.writableFinished);
}

/** Header values given to writeHead replace those the host set on the response: Vary is merged instead. */
function withHostVary(res: ServerResponse, headers: Record<string, string>): Record<string, string> {
  const ours = headers['vary'];
  const hostVary = ours === undefined ? undefined : res.getHeader('vary');
  return hostVary === undefined ? headers : { ...headers, vary: mergeVary(hostVary, ours!) };
}

function sendPlain(res: ServerResponse, response: CoreResponse): void {
  releaseWhenSent(res, response);
  const body = response.body;
  const headers = body !== undefined ? { ...response.headers, 'content-length': String(Buffer.byteLength(body)) } : response.headers;
  res.writeHead(response.status, withHostVary(res, headers));
  res.end(body);
}

function sendStream(res: ServerResponse, response: CoreResponse): void {
  // A stream is the last response of its connection: once it ends (client gone, or `close()`), the socket closes
  // instead of idling in keep-alive, where a server shutting down would wait on it until its keepAliveTimeout
  // (72 s under Fastify). HTTP/2 forbids the header.
  const http1 = (res.req?.httpVersionMajor ?? 1) < 2;
  res.writeHead(response.status, withHostVary(res, http1 ? { connection: 'close', ...response.headers } : response.headers));
  // A HEAD request gets the stream's headers and nothing else: opening it would only leak a subscriber.
  if (res.req?.method === 'HEAD' || res.destroyed) {
    res.end();
    return;
  }
  // Clients (Reflag's node SDK) wait for the headers before anything else: send them now, not with the first event.
  res.flushHeaders();
  // Disable Nagle so heartbeats and updates leave at once.
  res.socket?.setNoDelay(true);
  let released = false;
  let release: (() => void) | undefined;
  const onClose = () => {
    if (released) return;
    released = true;
    release?.();
  };
  res.once('close', onClose);
  release = response.stream!.open({
    write: (chunk) => {
      if (!res.writableEnded && !res.destroyed) res.write(chunk);
    },
    end: () => {
      if (!res.writableEnded) res.end();
    },
  });
  // The connection may have closed while `open` ran (or the stream ended itself at once).
  if (res.destroyed || res.closed) onClose();
}

/** What every adapter answers when its own translation failed: the spec's 500 body, never a host error page. */
export function internalErrorResponse(): CoreResponse {
  return errorResponse(new HttpError(500, 'unknown_error', 'Unexpected error'));
}

/**
 * What the host's framework already did with the body: parsed it, read it as text, refused it (the error its
 * parser threw), or neither.
 */
export type HostBody = { parsed?: unknown } | { text: string } | { refused: unknown };

/**
 * The whole request cycle up to the response: reads the body, calls the mount's handler. Never throws or rejects,
 * so no error of Flagmount's reaches the host's error handler.
 *
 * The response comes synchronously when nothing had to wait (no body to read, a handler that answered from
 * memory), else as a promise: each promise between the framework and the core is a turn of the microtask queue
 * on the hottest route. `await` it, or test for a promise to answer at once when it is not one.
 *
 * @param pathAndQuery the URL below the mount prefix (`/features?x=1`)
 * @param parsedQuery the framework's parse of that query, when it made one anyway (Fastify): decoding ~300 bytes
 *   of `contextJson` a second time was ~1 µs of the evaluate route
 * @param hostRequest the framework's request (Express `req`, Koa `ctx`, Fastify `request`) for the host's sign-in
 */
export function handleNodeRequest(
  mount: Mount,
  req: IncomingMessage,
  res: ServerResponse,
  pathAndQuery: string,
  hostBody: HostBody = {},
  parsedQuery?: unknown,
  hostRequest?: unknown,
): CoreResponse | Promise<CoreResponse> {
  let read: RequestBody | Promise<RequestBody>;
  try {
    if ('refused' in hostBody) read = { kind: 'unreadable', error: hostBody.refused };
    else if ('text' in hostBody) read = textBody(req, hostBody.text, mount.maxBodyBytes);
    else read = nodeRequestBody(req, hostBody.parsed, mount.maxBodyBytes);
  } catch (error) {
    read = { kind: 'unreadable', error };
  }
  if (read instanceof Promise) {
    return read.then(
      (body) => handleRead(mount, req, res, pathAndQuery, body, parsedQuery, hostRequest),
      (error: unknown) => handleRead(mount, req, res, pathAndQuery, { kind: 'unreadable', error }, parsedQuery, hostRequest),
    );
  }
  return handleRead(mount, req, res, pathAndQuery, read, parsedQuery, hostRequest);
}

// Module functions rather than closures: this runs for every request, and a closure made per call costs its
// allocation (and, under tsx's keepNames, a defineProperty).
function handleRead(
  mount: Mount,
  req: IncomingMessage,
  res: ServerResponse,
  pathAndQuery: string,
  body: RequestBody,
  parsedQuery: unknown,
  hostRequest: unknown,
) {
  try {
    const response = mount.handle(toCoreRequest(req, pathAndQuery, body, res, parsedQuery, hostRequest));
    if (!(response instanceof Promise)) return checkedResponse(response);
    return response.then(checkedResponse).then(undefined, (error: unknown) => failed(mount, req, error));
  } catch (error) {
    return failed(mount, req, error);
  }
}

function checkedResponse(response: CoreResponse): CoreResponse {
  checkHeaders(response.headers);
  return response;
}

function failed(mount: Mount, req: IncomingMessage, error: unknown): CoreResponse {
  // The core handler is written never to throw, and its headers are its own: this guards only against a bug
  // there, which would otherwise surface as an exception inside the host's framework.
  mount.logger.error('flagmount: request failed outside the handler', { error, method: req.method, url: req.url });
  return internalErrorResponse();
}

/**
 * The last value checked per header name. Most responses carry the same few constant headers (content type,
 * cache control), and checking them again on every answer was a measurable share of the evaluate route.
 */
const checked = new Map<string, string>();
const MAX_CHECKED = 64;

/** Throws for a header Node would refuse, before any framework tries to write it. */
function checkHeaders(headers: Record<string, string>): void {
  for (const name in headers) {
    const value = headers[name]!;
    if (checked.get(name) === value) continue;
    validateHeaderName(name);
    validateHeaderValue(name, value);
    if (checked.size < MAX_CHECKED || checked.has(name)) checked.set(name, value);
  }
}

function textBody(req: IncomingMessage, text: string, limit: number): RequestBody {
  if (Buffer.byteLength(text) > limit) throw new BodyTooLargeError();
  const contentType = req.headers['content-type'];
  return { kind: 'raw', text, ...(contentType !== undefined ? { contentType } : {}) };
}
