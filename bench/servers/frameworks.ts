import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Flagmount } from '@flagmount/core';
import type { BareResponse, Framework } from './host-config.js';

/** Node's default header limit (16 KiB) is below a 16 KiB contextJson plus the URL: see architecture "URL length". */
const MAX_HEADER_SIZE = 65536;

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** A host app of `framework` with Flagmount mounted at `prefix`. */
export async function mountFlagmount(framework: Framework, instance: Flagmount, prefix: string): Promise<RunningServer> {
  if (framework === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const { flagmountFastify } = await import('@flagmount/fastify');
    const app = Fastify({ logger: false, http: { maxHeaderSize: MAX_HEADER_SIZE } });
    await app.register(flagmountFastify, { instance, prefix });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  }
  if (framework === 'koa') {
    const { default: Koa } = await import('koa');
    const { flagmountKoa } = await import('@flagmount/koa');
    const app = new Koa();
    app.use(flagmountKoa(instance, { prefix }));
    const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app.callback());
    return { port: await listen(server), close: () => closeServer(server) };
  }
  const { default: express } = await import('express');
  const { flagmountExpress } = await import('@flagmount/express');
  const app = express();
  app.use(prefix, flagmountExpress(instance));
  const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app);
  return { port: await listen(server), close: () => closeServer(server) };
}

/**
 * The ceiling: the same framework answering the same bytes (status, headers, body) from a plain route, with the
 * framework's cheapest way of sending a prepared body.
 */
export async function bareRoute(framework: Framework, path: string, response: BareResponse): Promise<RunningServer> {
  const body = Buffer.from(response.body);
  if (framework === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: false, http: { maxHeaderSize: MAX_HEADER_SIZE } });
    app.get(path, (_request, reply) => reply.code(response.status).headers(response.headers).send(body));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  }
  if (framework === 'koa') {
    const { default: Koa } = await import('koa');
    const app = new Koa();
    app.use(async (ctx, next) => {
      if (ctx.method !== 'GET' || ctx.path !== path) return next();
      ctx.status = response.status;
      ctx.set(response.headers);
      ctx.body = body;
    });
    const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app.callback());
    return { port: await listen(server), close: () => closeServer(server) };
  }
  const { default: express } = await import('express');
  const app = express();
  const headers = { ...response.headers, 'content-length': String(body.length) };
  app.get(path, (_req, res) => {
    res.writeHead(response.status, headers);
    res.end(body);
  });
  const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app);
  return { port: await listen(server), close: () => closeServer(server) };
}
