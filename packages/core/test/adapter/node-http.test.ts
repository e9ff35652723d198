import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Mount } from '../../src/adapter/mount.js';
import { handleNodeRequest, nodeRequestBody, toCoreRequest } from '../../src/adapter/node-http.js';
import { BodyTooLargeError } from '../../src/http/read-body.js';
import type { CoreRequest, CoreResponse } from '../../src/http/types.js';

/** What Node's parser gives for a GET without a body; `headers` as `req.headers` holds them. */
const nodeRequest = (headers: IncomingMessage['headers'], method = 'GET') => ({ method, headers, readableEnded: false }) as IncomingMessage;

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A mount whose handler answers `respond(request)`. */
function mountAnswering(respond: (request: CoreRequest) => CoreResponse): Mount {
  return { prefix: '/flags', maxBodyBytes: 1024, logger: silent, handle: respond } as unknown as Mount;
}

describe('toCoreRequest', () => {
  it('reads Node’s headers as they are, and joins any that are lists (Node keeps set-cookie as one)', () => {
    const plain = toCoreRequest(nodeRequest({ authorization: 'Bearer k', 'x-a': '1' }), '/features?x=1', { kind: 'none' });
    expect(plain.headers).toEqual({ authorization: 'Bearer k', 'x-a': '1' });
    const listed = toCoreRequest(nodeRequest({ 'set-cookie': ['a=1', 'b=2'], 'x-a': '1' }), '/features', { kind: 'none' });
    expect(listed.headers).toEqual({ 'set-cookie': 'a=1, b=2', 'x-a': '1' });
  });

  it('upper-cases the method and splits path from query', () => {
    const request = toCoreRequest(nodeRequest({}, 'get'), '/features/evaluated?key=a&key=b', { kind: 'none' });
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/features/evaluated');
    expect(request.query).toEqual([
      ['key', 'a'],
      ['key', 'b'],
    ]);
  });
});

describe('handleNodeRequest', () => {
  it('answers 500 for a response header Node would refuse, even under a name whose earlier values passed', () => {
    let value = 'ok';
    const mount = mountAnswering(() => ({ status: 200, headers: { 'x-flag': value, 'content-type': 'text/plain' }, body: 'x' }));
    const answer = () => handleNodeRequest(mount, nodeRequest({}), {} as ServerResponse, '/features') as CoreResponse;
    expect(answer().status).toBe(200);
    expect(answer().status).toBe(200);
    value = 'line\nbreak';
    expect(answer().status).toBe(500);
    value = 'ok again';
    expect(answer().status).toBe(200);
  });

  it('answers 500 for a header name Node would refuse', () => {
    const mount = mountAnswering(() => ({ status: 200, headers: { 'bad name': 'x' }, body: 'x' }));
    expect((handleNodeRequest(mount, nodeRequest({}), {} as ServerResponse, '/features') as CoreResponse).status).toBe(500);
  });
});

describe('nodeRequestBody', () => {
  /** A request whose body a host parser has read to the end. */
  const consumed = (text: string) =>
    ({ headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, readableEnded: true }) as unknown as IncomingMessage;

  it("takes what a host's raw or text parser kept (a Buffer, a string) for the text, which the core parses", () => {
    const text = '{"userId":"u1","event":"x"}';
    expect(nodeRequestBody(consumed(text), Buffer.from(text), 1024)).toEqual({ kind: 'raw', text, contentType: 'application/json' });
    expect(nodeRequestBody(consumed(text), text, 1024)).toEqual({ kind: 'raw', text, contentType: 'application/json' });
    expect(nodeRequestBody(consumed(text), { userId: 'u1', event: 'x' }, 1024)).toMatchObject({ kind: 'parsed' });
    expect(() => nodeRequestBody(consumed(text), Buffer.from(text), 10)).toThrow(BodyTooLargeError);
  });
});
