import { createServer } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { flagmountExpress } from '@flagmount/express';
import { flagmountFastify } from '@flagmount/fastify';
import { flagmountKoa } from '@flagmount/koa';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeVary } from '@flagmount/core';
import { listenNode, type HostServer } from '../support/adapters.js';
import { createProbe, isErrorBody, type Probe } from './support/probe.js';

/** Ways of mounting that exist in one framework only (each framework's README shows them). */

let probe: Probe | undefined;
let server: HostServer | undefined;
let fastifyApp: FastifyInstance | undefined;

afterEach(async () => {
  await server?.close();
  if (fastifyApp) {
    fastifyApp.server.closeAllConnections();
    await fastifyApp.close();
  }
  await probe?.instance.close();
  probe = server = fastifyApp = undefined;
});

async function get(origin: string, path: string) {
  const res = await fetch(origin + path);
  return { status: res.status, body: (await res.json().catch(() => undefined)) as unknown };
}

describe('koa', () => {
  it('mounts through the host @koa/router, after its body parser', async () => {
    probe = createProbe();
    const app = new Koa();
    app.use(bodyParser());
    const router = new Router();
    const flags = flagmountKoa(probe.instance, { prefix: '/flags' });
    router.all('/flags{/*rest}', flags);
    router.get('/apps', (ctx) => {
      ctx.body = { host: 'apps' };
    });
    app.use(router.routes());
    server = await listenNode(createServer(app.callback()));
    for (const path of ['/flags', '/flags/', '/flags/apps']) expect((await get(server.origin, path)).status, path).toBe(200);
    expect((await get(server.origin, '/apps')).body).toEqual({ host: 'apps' });
    const missing = await get(server.origin, '/flags/nope');
    expect(missing.status).toBe(404);
    expect(isErrorBody(missing.body, 'not_found')).toBe(true);
    const res = await fetch(`${server.origin}/flags/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ via: 'router' }),
    });
    expect(await res.json()).toMatchObject({ kind: 'parsed', body: { via: 'router' } });
  });
});

describe('express', () => {
  it('mounts at the root with a prefix option', async () => {
    probe = createProbe();
    const app = express();
    app.use(flagmountExpress(probe.instance, { prefix: '/flags' }));
    app.get('/apps', (_req, res) => {
      res.json({ host: 'apps' });
    });
    server = await listenNode(createServer(app));
    expect((await get(server.origin, '/flags/apps')).body).toEqual({ probe: 'apps' });
    expect((await get(server.origin, '/flags')).body).toEqual({ probe: 'root' });
    expect((await get(server.origin, '/apps')).body).toEqual({ host: 'apps' });
  });
});

async function startFastify(register: (app: FastifyInstance) => Promise<void>): Promise<string> {
  fastifyApp = Fastify();
  await register(fastifyApp);
  await fastifyApp.listen({ port: 0, host: '127.0.0.1' });
  const address = fastifyApp.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

describe('fastify', () => {
  /** Flagmount at `/flags` inside a plugin registered at `/v1`. */
  async function startUnderV1(): Promise<string> {
    probe = createProbe();
    const instance = probe.instance;
    return startFastify(async (app) => {
      await app.register(async (api) => api.register(flagmountFastify, { instance, prefix: '/flags' }), { prefix: '/v1' });
    });
  }

  it('takes the outer prefix of an encapsulating plugin into account', async () => {
    const origin = await startUnderV1();
    expect((await get(origin, '/v1/flags/apps')).body).toEqual({ probe: 'apps' });
    expect((await get(origin, '/v1/flags')).body).toEqual({ probe: 'root' });
    expect(probe!.seen.at(-1)!.path).toBe('/');
  });

  it("answers below the prefix however Fastify's router matched it (escaped letters, another case)", async () => {
    const origin = await startUnderV1();
    expect((await get(origin, '/v1/%66lags/apps')).body).toEqual({ probe: 'apps' });
    expect(probe!.seen.at(-1)!.path).toBe('/apps');
    expect((await get(origin, '/%76%31/flags?x=1')).body).toEqual({ probe: 'root' });
    expect(probe!.seen.at(-1)!.path).toBe('/');
  });

  it('leaves the host error handler, parsers and hooks in charge of the host routes', async () => {
    probe = createProbe();
    const instance = probe.instance;
    const origin = await startFastify(async (app) => {
      app.setErrorHandler((_error, _request, reply) => reply.code(418).send({ host: 'error handler' }));
      app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, `host:${String(body)}`));
      await app.register(flagmountFastify, { instance, prefix: '/flags' });
      app.post('/host/text', async (request) => ({ body: request.body }));
      app.get('/host/fail', async () => {
        throw new Error('host failure');
      });
    });
    const text = await fetch(`${origin}/host/text`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(await text.json()).toEqual({ body: 'host:hi' });
    expect((await get(origin, '/host/fail')).status).toBe(418);
    // Broken JSON on a Flagmount route is a body-parsing failure: Flagmount answers it, not the host (418).
    const broken = await fetch(`${origin}/flags/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(broken.status).toBe(400);
    expect(isErrorBody(await broken.json(), 'invalid_request')).toBe(true);
  });

  it('hands a host hook error on a Flagmount route to the host error handler', async () => {
    probe = createProbe();
    const instance = probe.instance;
    const origin = await startFastify(async (app) => {
      app.setErrorHandler((_error, _request, reply) => reply.code(401).send({ host: 'denied' }));
      app.addHook('onRequest', async (request) => {
        if (request.headers['x-deny']) throw new Error('denied by host');
      });
      await app.register(flagmountFastify, { instance, prefix: '/flags' });
    });
    const res = await fetch(`${origin}/flags/apps`, { headers: { 'x-deny': '1' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ host: 'denied' });
  });
});

// Middleware ahead of the mount may vary the answer already (compression: Accept-Encoding); Flagmount's CORS adds
// Origin. Replacing the host's field would let a cache serve a compressed answer to a client that cannot read it.
describe('a Vary set by the host ahead of the mount', () => {
  const varyOf = async (origin: string, path = '/flags') => {
    const res = await fetch(origin + path, { headers: { origin: 'https://app.example' } });
    await res.body?.cancel();
    return res.headers.get('vary');
  };

  it('express: keeps the host field and adds Origin', async () => {
    probe = createProbe();
    const app = express();
    app.use((_req, res, next) => {
      res.vary('Accept-Encoding');
      next();
    });
    app.use('/flags', flagmountExpress(probe.instance));
    server = await listenNode(createServer(app));
    expect(await varyOf(server.origin)).toBe('Accept-Encoding, Origin');
    expect(await varyOf(server.origin, '/flags/stream')).toBe('Accept-Encoding, Origin');
  });

  it('koa: keeps the host field and adds Origin', async () => {
    probe = createProbe();
    const app = new Koa();
    app.use(async (ctx, next) => {
      ctx.vary('Accept-Encoding');
      await next();
    });
    app.use(flagmountKoa(probe.instance, { prefix: '/flags' }));
    server = await listenNode(createServer(app.callback()));
    expect(await varyOf(server.origin)).toBe('Accept-Encoding, Origin');
  });

  it('fastify: keeps the host field and adds Origin', async () => {
    probe = createProbe();
    const instance = probe.instance;
    const origin = await startFastify(async (app) => {
      app.addHook('onRequest', async (_request, reply) => {
        reply.header('vary', 'Accept-Encoding');
      });
      await app.register(flagmountFastify, { instance, prefix: '/flags' });
    });
    expect((await varyOf(origin))?.toLowerCase()).toBe('accept-encoding, origin');
  });

  it('merges field lists once each, without case, and * stands for all', () => {
    expect(mergeVary(undefined, 'Origin')).toBe('Origin');
    expect(mergeVary('accept-encoding, origin', 'Origin')).toBe('accept-encoding, origin');
    expect(mergeVary(['Accept-Encoding', 'Cookie'], 'Origin')).toBe('Accept-Encoding, Cookie, Origin');
    expect(mergeVary('*', 'Origin')).toBe('*');
  });
});
