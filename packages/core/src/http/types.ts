/**
 * The framework-neutral request and response. Adapters translate Express/Koa/Fastify requests into a
 * `CoreRequest` and write a `CoreResponse` back; nothing in the core knows which framework is in front.
 */

export type RequestBody =
  | { kind: 'none' }
  /** The host's own body parser already produced a value (Express `req.body`, Koa `ctx.request.body`, …). */
  | { kind: 'parsed'; value: unknown; contentType?: string }
  /** Raw bytes as received; the core parses JSON itself. */
  | { kind: 'raw'; text: string; contentType?: string }
  /**
   * The body could not be read (over the size limit, a broken stream, JSON a framework's parser refused): the core
   * answers with the matching error body where it would have read the body, after routing and the key check, so
   * every framework answers alike and with the route's CORS headers.
   */
  | { kind: 'unreadable'; error: unknown };

export interface CoreRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path below the mount prefix, starting with `/`, not decoded. */
  path: string;
  /** Query parameters as received, repeated keys kept, in order, decoded. */
  query: ReadonlyArray<readonly [string, string]>;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Readonly<Record<string, string | undefined>>;
  body: RequestBody;
  /** Aborted when the client goes away: long polls and streams stop early. */
  signal?: AbortSignal;
  /**
   * The framework's own request (Express `req`, Koa `ctx`, Fastify `request`), opaque to the core: handed to the
   * host's `authenticate`, never read here.
   */
  hostRequest?: unknown;
}

/** A streamed body (Server-Sent Events). */
export interface StreamBody {
  /**
   * Called once the adapter has sent the status and headers. Returns a function the adapter calls when the
   * connection closes (from either side), so the stream can release its resources.
   */
  open(sink: StreamSink): () => void;
}

export interface StreamSink {
  write(chunk: string): void;
  end(): void;
}

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * Serialised body; absent for 204/HEAD and for streams. Bytes are UTF-8 and may be a slice of a larger buffer
   * (see `ByteSlab`); they never change, but keeping them keeps that buffer alive.
   */
  body?: string | Buffer;
  stream?: StreamBody;
  /**
   * Present when the body's bytes are lent: call it once they are no longer read, that is when the response has
   * been handed to the operating system (Node's `'finish'`), and the core may reuse them. Or call it at once with
   * `sent`, which tells whether that has happened yet: the core asks it just before it would reuse the bytes, and
   * reuses them only on true (Node's `res.writableFinished`; no listener per response). Optional to call: bytes
   * never released are simply never reused. Calling it earlier without `sent` lets a later response overwrite this
   * body.
   */
  release?: (sent?: () => boolean) => void;
}
