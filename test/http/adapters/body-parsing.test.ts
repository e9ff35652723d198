import { expect, it } from 'vitest';
import { forEachProbeHost, isErrorBody } from './support/probe.js';

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

for (const bodyParser of ['before', 'after', 'none'] as const) {
  forEachProbeHost(`host body parser ${bodyParser}`, { host: { bodyParser } }, (host) => {
    it('hands a JSON body to the core, parsed by the host or read by Flagmount', async () => {
      const res = await host().fetch('/flags/echo', json({ a: 1, list: [1, 2] }));
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.body).toEqual({ a: 1, list: [1, 2] });
      // Express's and Koa's parsers run first only in `before`; Flagmount's Fastify scope keeps no parser of the host's.
      const hostParsed = host().adapter !== 'fastify' && bodyParser === 'before';
      expect(body.kind).toBe(hostParsed ? 'parsed' : 'raw');
    });

    it('answers a POST without a body with no body', async () => {
      const res = await host().fetch('/flags/echo', { method: 'POST' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ kind: 'none', body: null });
    });

    it('answers a non-JSON content type with 400 and the error body', async () => {
      const res = await host().fetch('/flags/echo', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(isErrorBody(body, 'invalid_request')).toBe(true);
      expect(body.issues).toEqual({ '': ['Content-Type must be application/json'] });
    });

    it('reads valid JSON with __proto__ and constructor keys as plain names, on every framework', async () => {
      const text = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}';
      const res = await host().fetch('/flags/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      // @koa/bodyparser refuses these keys; first in line, it answers for the host.
      if (refusedByHost() && host().adapter === 'koa') {
        expect(host().hostErrors).toHaveLength(1);
        return;
      }
      expect(res.status).toBe(200);
      const echoed = (await res.json()).body;
      expect(Object.keys(echoed)).toEqual(['__proto__', 'constructor']);
      expect(JSON.stringify(echoed)).toBe(text);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('takes a JSON body of whitespace for no body, like an empty one', async () => {
      const res = await host().fetch('/flags/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '  \n ' });
      if (refusedByHost()) return;
      expect(res.status).toBe(200);
      expect((await res.json()).body).toBeNull();
    });

    it('reads a body without Content-Type as JSON, and answers an empty Content-Type with 400', async () => {
      // Bytes, not a string: fetch gives a string body a text/plain type of its own.
      const send = (headers: Record<string, string>) =>
        host().fetch('/flags/echo', { method: 'POST', headers, body: new TextEncoder().encode('{"a":1}') });
      const untyped = await send({});
      if (refusedByHost()) return;
      expect(untyped.status).toBe(200);
      expect((await untyped.json()).body).toEqual({ a: 1 });
      const empty = await send({ 'content-type': '' });
      expect(empty.status).toBe(400);
      expect((await empty.json()).issues).toEqual({ '': ['Content-Type must be application/json'] });
    });

    it('answers a compressed body it reads itself with 400; a host parser that inflated it hands it over parsed', async () => {
      const { gzipSync } = await import('node:zlib');
      const res = await host().fetch('/flags/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync('{"a":1}'),
      });
      if (host().adapter !== 'fastify' && bodyParser === 'before') {
        expect(res.status).toBe(200);
        expect((await res.json()).body).toEqual({ a: 1 });
        return;
      }
      expect(res.status).toBe(400);
      expect((await res.json()).issues).toEqual({ '': ['Content-Encoding gzip is not supported: send the body uncompressed'] });
    });

    it.skipIf(bodyParser === 'none')('leaves the host routes to the host parser', async () => {
      const res = await host().fetch('/host/echo', json({ host: 'body' }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ body: { host: 'body' } });
    });

    // Express's and Koa's parsers run before Flagmount in `before` and throw into the host's error handler for
    // what they refuse (documented: mount Flagmount first). Fastify's parser errors stay inside Flagmount's plugin.
    const refusedByHost = () => bodyParser === 'before' && host().adapter !== 'fastify';

    it('answers broken JSON with 400 invalid_request, unless a host parser ran first', async () => {
      const res = await host().fetch('/flags/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
      if (refusedByHost()) {
        expect(host().hostErrors).toHaveLength(1);
        return;
      }
      expect(res.status).toBe(400);
      expect(isErrorBody(await res.json(), 'invalid_request')).toBe(true);
      expect(host().hostErrors).toEqual([]);
    });

    it('reads a JSON body that starts with a byte order mark, as every framework does', async () => {
      const res = await host().fetch('/flags/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '\ufeff{"a":1}' });
      if (refusedByHost()) return;
      expect(res.status).toBe(200);
      expect((await res.json()).body).toEqual({ a: 1 });
    });

    it('takes an empty body sent as JSON for no body, as every framework hands it over', async () => {
      const res = await host().fetch('/flags/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
      expect(res.status).toBe(200);
      // No body either way: absent ('none'), or empty text the core reads as none (a Fastify host without parsers).
      expect((await res.json()).body).toBeNull();
    });

    it('answers a body it cannot read with the CORS headers of the runtime route, so a browser can read why', async () => {
      const res = await host().fetch('/flags/echo', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://app.example' }, body: '{"a":' });
      if (refusedByHost()) return;
      expect(res.status).toBe(400);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    });

    it('accepts any JSON value the core accepts, such as a bare string, unless a strict host parser ran first', async () => {
      const res = await host().fetch('/flags/echo', json('just a string'));
      if (refusedByHost()) {
        expect(host().hostErrors).toHaveLength(1);
        return;
      }
      expect(res.status).toBe(200);
      expect((await res.json()).body).toBe('just a string');
    });
  });
}

forEachProbeHost('maxBodyBytes', { host: { mount: { maxBodyBytes: 64 } } }, (host) => {
  const big = { padding: 'x'.repeat(200) };

  it('answers a body over the limit with 413 invalid_request, with the runtime route\'s CORS headers', async () => {
    const res = await host().fetch('/flags/echo', json(big, { origin: 'https://app.example' }));
    expect(res.status).toBe(413);
    expect(isErrorBody(await res.json(), 'invalid_request')).toBe(true);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(host().hostErrors).toEqual([]);
  });

  it('answers a body it cannot read where it would read it: after routing, so an unknown path is a 404', async () => {
    expect((await host().fetch('/flags/nowhere', json(big))).status).toBe(404);
  });

  it('counts a chunked body (no Content-Length) too', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(big));
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes.slice(0, 100));
        controller.enqueue(bytes.slice(100));
        controller.close();
      },
    });
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' };
    const res = await host().fetch('/flags/echo', init as RequestInit);
    expect(res.status).toBe(413);
    expect(isErrorBody(await res.json(), 'invalid_request')).toBe(true);
  });

  it('accepts a body under the limit', async () => {
    const res = await host().fetch('/flags/echo', json({ ok: true }));
    expect(res.status).toBe(200);
  });
});

forEachProbeHost('maxBodyBytes behind a host parser', { host: { bodyParser: 'before', mount: { maxBodyBytes: 64 } } }, (host) => {
  it('applies the mount limit to a body the host parsed', async () => {
    const res = await host().fetch('/flags/echo', json({ padding: 'x'.repeat(200) }));
    expect(res.status).toBe(413);
    expect(isErrorBody(await res.json(), 'invalid_request')).toBe(true);
  });
});
