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

/** A prepared answer of a bare route: what the framework's cheapest way of sending takes, built once. */
export interface PreparedAnswer {
  status: number;
  headers: Record<string, string>;
  /** The same headers with the body's length (Express writes the head itself). */
  headersWithLength: Record<string, string>;
  body: Buffer;
}

export function prepareAnswer(response: BareResponse): PreparedAnswer {
  const body = Buffer.from(response.body);
  return { status: response.status, headers: response.headers, headersWithLength: { ...response.headers, 'content-length': String(body.length) }, body };
}

/**
 * A bare route: `GET path` answering `answer()` (a 503 while it has none), with the framework's cheapest way of
 * sending a prepared body, and nothing else in front of it.
 */
export interface BareRoute {
  path: string;
  answer: () => PreparedAnswer | undefined;
}

/**
 * A host app of `framework`: Flagmount mounted at `mount.prefix` when `mount` is given, and `bare` when given.
 * The bare route alone is the ceiling; next to the mount it is the same route in Flagmount's process, registered
 * first so that nothing of Flagmount's runs for it.
 */
export async function hostApp(
  framework: Framework,
  options: { mount?: { instance: Flagmount; prefix: string }; bare?: BareRoute },
): Promise<RunningServer> {
  const { mount, bare } = options;
  if (framework === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: false, http: { maxHeaderSize: MAX_HEADER_SIZE } });
    if (bare) {
      app.get(bare.path, (_request, reply) => {
        const a = bare.answer();
        return a ? reply.code(a.status).headers(a.headers).send(a.body) : reply.code(503).send();
      });
    }
    if (mount) {
      const { flagmountFastify } = await import('@flagmount/fastify');
      await app.register(flagmountFastify, mount);
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  }
  if (framework === 'koa') {
    const { default: Koa } = await import('koa');
    const app = new Koa();
    if (bare) {
      app.use(async (ctx, next) => {
        const a = ctx.method === 'GET' && ctx.path === bare.path ? bare.answer() : undefined;
        if (!a) return next();
        ctx.status = a.status;
        ctx.set(a.headers);
        ctx.body = a.body;
      });
    }
    if (mount) {
      const { flagmountKoa } = await import('@flagmount/koa');
      app.use(flagmountKoa(mount.instance, { prefix: mount.prefix }));
    }
    const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app.callback());
    return { port: await listen(server), close: () => closeServer(server) };
  }
  const { default: express } = await import('express');
  const app = express();
  if (bare) {
    app.get(bare.path, (_req, res) => {
      const a = bare.answer();
      if (!a) return void res.status(503).end();
      res.writeHead(a.status, a.headersWithLength);
      res.end(a.body);
    });
  }
  if (mount) {
    const { flagmountExpress } = await import('@flagmount/express');
    app.use(mount.prefix, flagmountExpress(mount.instance));
  }
  const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app);
  return { port: await listen(server), close: () => closeServer(server) };
}

/** A host app of `framework` with Flagmount mounted at `prefix`. */
export const mountFlagmount = (framework: Framework, instance: Flagmount, prefix: string) => hostApp(framework, { mount: { instance, prefix } });

/**
 * The ceiling: the same framework answering the same bytes (status, headers, body) from a plain route; with
 * `spinMicros`, after a busy loop of that many microseconds per request.
 */
export function bareRoute(framework: Framework, path: string, response: BareResponse, spinMicros = 0): Promise<RunningServer> {
  const answer = prepareAnswer(response);
  const spin = () => {
    const until = performance.now() + spinMicros / 1000;
    while (performance.now() < until);
    return answer;
  };
  return hostApp(framework, { bare: { path, answer: spinMicros > 0 ? spin : () => answer } });
}
