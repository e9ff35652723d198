import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import type { FlagContext, Flagmount, RequestFlags } from '@flagmount/core';
import { flagmountExpress, requestFlags as expressFlags, requireFlag as expressRequire } from '@flagmount/express';
import { flagmountFastify, requireFlag as fastifyRequire } from '@flagmount/fastify';
import { flagmountKoa, requestFlags as koaFlags, requireFlag as koaRequire } from '@flagmount/koa';
import express, { type NextFunction, type Request, type Response } from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { listenNode, type HostServer } from '../support/adapters.js';

/**
 * Host apps that use request-bound flags, one per framework, alike: the context comes from the `x-user` header
 * (`x-context: throw|garbage|async` to misbehave), and the routes are
 *   GET /memo          reads `beta` three ways, answers what it read
 *   GET /deep          answers `flags.current()`'s `beta` from code below an await, with no request in hand
 *   GET /bootstrap     `getFlagsForBootstrap()` of the request's flags
 *   GET /beta          behind `requireFlag('beta')`; /beta-redirect, /beta-status (403), /beta-handler
 * with the host's own 404 (`{ hostNotFound: true }`) and error handler (`{ hostError: status }`).
 */
export type HostName = 'express' | 'koa' | 'fastify';

export function contextOf(headers: Record<string, string | string[] | undefined>): FlagContext | Promise<FlagContext> | string {
  const mode = headers['x-context'];
  if (mode === 'throw') throw new Error('session store down');
  if (mode === 'garbage') return 'not a context';
  const user = headers['x-user'];
  const context = typeof user === 'string' ? { user: { id: user } } : {};
  return mode === 'async' ? Promise.resolve(context) : context;
}

const memo = (flags: RequestFlags) => ({ a: flags.isEnabled('beta'), b: flags.isEnabled('beta'), c: flags.getFlag('beta').isEnabled });
const deep = async (instance: Flagmount) => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return { beta: instance.current()?.isEnabled('beta') ?? null };
};
const context = (headers: Record<string, string | string[] | undefined>) => contextOf(headers) as FlagContext;

export async function listenHost(name: HostName, instance: Flagmount, hostErrors: unknown[]): Promise<HostServer> {
  if (name === 'express') {
    const app = express();
    app.use('/flags', flagmountExpress(instance));
    app.use(expressFlags(instance, { context: (req) => context(req.headers), current: true }));
    app.get('/memo', (req, res) => void res.json(memo(req.flags)));
    app.get('/deep', async (_req, res) => void res.json(await deep(instance)));
    app.get('/bootstrap', (req, res) => void res.json(req.flags.getFlagsForBootstrap()));
    app.get('/beta', expressRequire('beta'), (_req, res) => void res.json({ beta: true }));
    app.get('/beta-redirect', expressRequire('beta', { redirect: '/home' }), (_req, res) => void res.json({ beta: true }));
    app.get('/beta-status', expressRequire('beta', { status: 403 }), (_req, res) => void res.json({ beta: true }));
    app.get('/beta-handler', expressRequire('beta', { handler: (_req, res) => void res.status(402).json({ upgrade: true }) }), (_req, res) => void res.json({ beta: true }));
    app.use((_req, res) => void res.status(404).json({ hostNotFound: true }));
    app.use((error: { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
      hostErrors.push(error);
      res.status(error.status ?? 500).json({ hostError: error.status ?? 500 });
    });
    return listenNode(createServer(app));
  }
  if (name === 'koa') {
    const app = new Koa();
    app.use(async (ctx, next) => {
      try {
        await next();
        if (ctx.status === 404 && ctx.body === undefined) ctx.body = { hostNotFound: true };
      } catch (error) {
        hostErrors.push(error);
        const status = (error as { status?: number }).status ?? 500;
        ctx.status = status;
        ctx.body = status === 404 ? { hostNotFound: true } : { hostError: status };
      }
    });
    app.use(flagmountKoa(instance, { prefix: '/flags' }));
    app.use(koaFlags(instance, { context: (ctx) => context(ctx.headers), current: true }));
    const router = new Router();
    router.get('/memo', (ctx) => void (ctx.body = memo(ctx.state.flags)));
    router.get('/deep', async (ctx) => void (ctx.body = await deep(instance)));
    router.get('/bootstrap', (ctx) => void (ctx.body = ctx.state.flags.getFlagsForBootstrap()));
    router.get('/beta', koaRequire('beta'), (ctx) => void (ctx.body = { beta: true }));
    router.get('/beta-redirect', koaRequire('beta', { redirect: '/home' }), (ctx) => void (ctx.body = { beta: true }));
    router.get('/beta-status', koaRequire('beta', { status: 403 }), (ctx) => void (ctx.body = { beta: true }));
    router.get('/beta-handler', koaRequire('beta', { handler: (ctx) => void ((ctx.status = 402), (ctx.body = { upgrade: true })) }), (ctx) => void (ctx.body = { beta: true }));
    app.use(router.routes());
    return listenNode(createServer(app.callback()));
  }
  const app = Fastify();
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ hostNotFound: true }));
  app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
    hostErrors.push(error);
    return reply.code(error.statusCode ?? 500).send({ hostError: error.statusCode ?? 500 });
  });
  await app.register(flagmountFastify, { instance, prefix: '/flags', context: (request) => context(request.headers), current: true });
  app.get('/memo', async (request) => memo(request.flags));
  app.get('/deep', async () => deep(instance));
  app.get('/bootstrap', async (request) => request.flags.getFlagsForBootstrap());
  app.get('/beta', { preHandler: fastifyRequire('beta') }, async () => ({ beta: true }));
  app.get('/beta-redirect', { preHandler: fastifyRequire('beta', { redirect: '/home' }) }, async () => ({ beta: true }));
  app.get('/beta-status', { preHandler: fastifyRequire('beta', { status: 403 }) }, async () => ({ beta: true }));
  app.get('/beta-handler', { preHandler: fastifyRequire('beta', { handler: (_request, reply) => reply.code(402).send({ upgrade: true }) }) }, async () => ({ beta: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, server: app.server, close: () => app.close() };
}
