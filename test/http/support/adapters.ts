import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Flagmount, MountOptions } from '@flagmount/core';
import { flagmountExpress } from '@flagmount/express';
import { flagmountFastify } from '@flagmount/fastify';
import { flagmountKoa } from '@flagmount/koa';
import express, { type NextFunction, type Request, type Response } from 'express';
import Fastify from 'fastify';
import Koa from 'koa';

/** A host app with Flagmount mounted at `prefix`, listening on loopback. */
export interface HostServer {
  origin: string;
  server: Server;
  close(): Promise<void>;
}

export interface HostOptions {
  /**
   * The host's own JSON body parser, relative to Flagmount: `after` (default) mounts Flagmount first, the order the
   * READMEs recommend, so a parser failure (broken JSON, a non-object under Express's `strict`) cannot pre-empt
   * Flagmount's error body; `before` runs the host's parser first (Flagmount uses the parsed body); `none` has no
   * parser. Fastify's parsers are per content type, not ordered: `before` and `after` both keep its JSON parser,
   * `none` removes every parser from the host.
   */
  bodyParser?: 'before' | 'after' | 'none';
  /** Options for the mount at `prefix` (besides the prefix). */
  mount?: Omit<MountOptions, 'prefix'>;
  /** More mounts of the same instance, e.g. management and runtime on two prefixes. */
  extraMounts?: Array<{ prefix: string; options: Omit<MountOptions, 'prefix'> }>;
  /** Called with every error that reaches the host's own error handler. */
  onHostError?: (error: unknown) => void;
}

export interface AdapterFactory {
  name: 'express' | 'koa' | 'fastify';
  /**
   * Starts a host app: its own JSON body parser, host routes `GET /host/ping`, `GET /apps` (same path as a
   * Flagmount route, outside the prefix), `POST /host/echo` (answers `{ body }` as the host parsed it) and
   * `GET /host/boom` (throws into the host's error handler, which answers 500 `{ hostError: true }`),
   * Flagmount under `prefix`, and the framework's own 404 elsewhere.
   */
  listen(instance: Flagmount, prefix: string, host?: HostOptions): Promise<HostServer>;
}

// Node's default 16 KiB header limit is below a 16 KiB contextJson in the URL (architecture.md, "URL length").
export const MAX_HEADER_SIZE = 65536;
// Larger than any Flagmount limit in the suites, so that Flagmount's own maxBodyBytes is what a test observes.
const HOST_BODY_LIMIT = 16 * 1024 * 1024;

export async function listenNode(server: Server): Promise<HostServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const mountsOf = (prefix: string, host: HostOptions) => [{ prefix, options: host.mount ?? {} }, ...(host.extraMounts ?? [])];

export const expressFactory: AdapterFactory = {
  name: 'express',
  async listen(instance, prefix, host = {}) {
    const app = express();
    const parser = express.json({ limit: HOST_BODY_LIMIT });
    const mode = host.bodyParser ?? 'after';
    if (mode === 'before') app.use(parser);
    for (const m of mountsOf(prefix, host)) app.use(m.prefix, flagmountExpress(instance, m.options));
    if (mode === 'after') app.use(parser);
    app.get('/host/ping', (_req, res) => {
      res.json({ host: true });
    });
    app.get('/apps', (_req, res) => {
      res.json({ host: 'apps' });
    });
    app.post('/host/echo', (req, res) => {
      res.json({ body: req.body ?? null });
    });
    app.get('/host/boom', () => {
      throw new Error('host route failed');
    });
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      host.onHostError?.(error);
      res.status(500).json({ hostError: true });
    });
    return listenNode(createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app));
  },
};

export const koaFactory: AdapterFactory = {
  name: 'koa',
  async listen(instance, prefix, host = {}) {
    const app = new Koa();
    // The host's error handler: outermost, as Koa apps usually have it.
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        host.onHostError?.(error);
        ctx.status = 500;
        ctx.body = { hostError: true };
      }
    });
    app.on('error', (error: unknown) => host.onHostError?.(error));
    const parser = bodyParser({ jsonLimit: HOST_BODY_LIMIT });
    const mode = host.bodyParser ?? 'after';
    if (mode === 'before') app.use(parser);
    for (const m of mountsOf(prefix, host)) app.use(flagmountKoa(instance, { ...m.options, prefix: m.prefix }));
    if (mode === 'after') app.use(parser);
    const router = new Router();
    router.get('/host/ping', (ctx) => {
      ctx.body = { host: true };
    });
    router.get('/apps', (ctx) => {
      ctx.body = { host: 'apps' };
    });
    router.post('/host/echo', (ctx) => {
      ctx.body = { body: (ctx.request as { body?: unknown }).body ?? null };
    });
    router.get('/host/boom', () => {
      throw new Error('host route failed');
    });
    app.use(router.routes());
    return listenNode(createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app.callback()));
  },
};

export const fastifyFactory: AdapterFactory = {
  name: 'fastify',
  async listen(instance, prefix, host = {}) {
    const app = Fastify({ http: { maxHeaderSize: MAX_HEADER_SIZE }, bodyLimit: HOST_BODY_LIMIT });
    if (host.bodyParser === 'none') app.removeAllContentTypeParsers();
    app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
      host.onHostError?.(error);
      return reply.code(error.statusCode ?? 500).send({ hostError: true });
    });
    for (const m of mountsOf(prefix, host)) await app.register(flagmountFastify, { instance, ...m.options, prefix: m.prefix });
    app.get('/host/ping', async () => ({ host: true }));
    app.get('/apps', async () => ({ host: 'apps' }));
    app.post('/host/echo', async (request) => ({ body: request.body ?? null }));
    app.get('/host/boom', async () => {
      throw new Error('host route failed');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return {
      origin: `http://127.0.0.1:${port}`,
      server: app.server,
      async close() {
        // Open SSE streams would otherwise hold `close()` until they end.
        app.server.closeAllConnections();
        await app.close();
      },
    };
  },
};

/** Every adapter the HTTP suite runs against; `FLAGMOUNT_ADAPTERS=express,koa` narrows it. */
export const allAdapters: AdapterFactory[] = [expressFactory, koaFactory, fastifyFactory];

export function selectedAdapters(): AdapterFactory[] {
  const wanted = process.env['FLAGMOUNT_ADAPTERS']?.split(',').map((s) => s.trim());
  return wanted ? allAdapters.filter((a) => wanted.includes(a.name)) : allAdapters;
}
