import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse } from '../http/handler.js';
import { HttpError } from '../http/http-error.js';
import type { CoreRequest, CoreResponse, RequestBody } from '../http/types.js';

/**
 * Helpers over Node's own http types, which every framework exposes (`req.raw`, `ctx.req`, …): adapters use them
 * so that each stays a thin translation.
 */

export class BodyTooLargeError extends Error {}

/** Reads the request stream as UTF-8 text, refusing more than `limit` bytes. */
export function readRawBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new BodyTooLargeError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The body as the core wants it: the host's parsed value if a parser ran, else the raw text read here (bounded),
 * else none.
 */
export async function nodeRequestBody(
  req: IncomingMessage,
  parsed: unknown,
  limit: number,
): Promise<RequestBody> {
  const contentType = req.headers['content-type'];
  if (parsed !== undefined) return { kind: 'parsed', value: parsed, ...(contentType ? { contentType } : {}) };
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody || req.readableEnded) return { kind: 'none' };
  const text = await readRawBody(req, limit);
  return { kind: 'raw', text, ...(contentType ? { contentType } : {}) };
}

/** Builds the core request from a path+query below the mount and Node's request. */
export function toCoreRequest(req: IncomingMessage, pathAndQuery: string, body: RequestBody, signal?: AbortSignal): CoreRequest {
  const q = pathAndQuery.indexOf('?');
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  const query: Array<[string, string]> = q === -1 ? [] : [...new URLSearchParams(pathAndQuery.slice(q + 1))];
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { method: (req.method ?? 'GET').toUpperCase(), path: path || '/', query, headers, body, ...(signal ? { signal } : {}) };
}

/** An AbortSignal that fires when the client disconnects before the response is done. */
export function disconnectSignal(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const abort = () => {
    if (!res.writableEnded) controller.abort();
  };
  res.once('close', abort);
  return controller.signal;
}

/** Writes a core response (plain or streamed) to Node's response. */
export function sendNodeResponse(res: ServerResponse, response: CoreResponse): void {
  if (res.headersSent) return;
  if (response.stream) {
    res.writeHead(response.status, response.headers);
    res.flushHeaders();
    // Disable Nagle so heartbeats and updates leave at once.
    res.socket?.setNoDelay(true);
    const release = response.stream.open({
      write: (chunk) => {
        if (!res.writableEnded) res.write(chunk);
      },
      end: () => {
        if (!res.writableEnded) res.end();
      },
    });
    res.once('close', release);
    return;
  }
  const body = response.body;
  const headers = body !== undefined ? { ...response.headers, 'content-length': String(Buffer.byteLength(body)) } : response.headers;
  res.writeHead(response.status, headers);
  res.end(body);
}

/** The response for a request this mount could not even read (too large, broken stream). */
export function unreadableRequestResponse(error: unknown): CoreResponse {
  if (error instanceof BodyTooLargeError) {
    return errorResponse(new HttpError(413, 'payload_too_large', 'Request body is too large'));
  }
  return errorResponse(new HttpError(400, 'invalid_request', 'Could not read the request body'));
}
