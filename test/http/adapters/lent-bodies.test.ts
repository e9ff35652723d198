import { createServer } from 'node:http';
import { bodyText, createFlagmount, type CoreResponse, type Flagmount } from '@flagmount/core';
import { flagmountExpress } from '@flagmount/express';
import { flagmountFastify } from '@flagmount/fastify';
import { flagmountKoa } from '@flagmount/koa';
import { memoryStorage } from '@flagmount/storage-memory';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { listenNode, selectedAdapters, type HostServer } from '../support/adapters.js';
import { SDK_KEYS } from '../support/harness.js';
import { seedFlags } from '../runtime/support/seed.js';

/**
 * The evaluate route lends its body bytes (`CoreResponse.release`): once a response is with the operating system
 * the next answer reuses them. Every answer must still be exactly its own, and a host that keeps payloads (a
 * response cache) must find them unchanged later: then nothing is lent.
 */

const PUBLISHABLE = SDK_KEYS.development.publishableKey;
const USERS = Array.from({ length: 120 }, (_, i) => `user-${i}`);

interface Counted {
  instance: Flagmount;
  /** Evaluate answers handed out, and how many of them came back through `release`. */
  counts: { lent: number; released: number };
  /** Where each lent body's bytes were, in order: reused bytes show up as the same place again. */
  places: Array<readonly [ArrayBufferLike, number]>;
}

let instance: Flagmount | undefined;
let host: HostServer | undefined;

afterEach(async () => {
  await host?.close();
  await instance?.close();
  host = instance = undefined;
});

/** An instance whose answers differ by user: flag f is on for the users whose number is a multiple of f + 2. */
async function seededInstance(): Promise<Flagmount> {
  instance = await createFlagmount({ storage: memoryStorage(), bootstrap: { managementKey: 'fmk_lent_bodies_0123456789abcdefghij', sdkKeys: SDK_KEYS } });
  const appId = instance.bootstrap!.appId;
  const dev = instance.bootstrap!.environments.find((e) => e.name === 'Development')!.id;
  await seedFlags(
    instance,
    appId,
    Array.from({ length: 30 }, (_, f) => ({
      key: `flag-${f}`,
      rules: { [dev]: [{ type: 'context', field: 'user.id', operator: 'IS', values: USERS.filter((_, i) => i % (f + 2) === 0) }] },
    })),
  );
  return instance;
}

/** The same instance, its handler wrapped to count lent bodies and their release. */
function counted(target: Flagmount): Counted {
  const counts = { lent: 0, released: 0 };
  const places: Counted['places'] = [];
  const count = (response: CoreResponse): CoreResponse => {
    const release = response.release;
    if (!release) return response;
    counts.lent++;
    const body = response.body as Buffer;
    places.push([body.buffer, body.byteOffset]);
    return {
      ...response,
      release: (sent) => {
        counts.released++;
        release(sent);
      },
    };
  };
  const handler: Flagmount['handler'] = (request) => {
    const response = target.handler(request);
    return response instanceof Promise ? response.then(count) : count(response);
  };
  return { instance: new Proxy(target, { get: (t, key) => (key === 'handler' ? handler : Reflect.get(t, key)) }), counts, places };
}

const path = (user: string) => `/features/evaluated?contextJson=${encodeURIComponent(JSON.stringify({ user: { id: user } }))}&publishableKey=${PUBLISHABLE}`;

/** Each user's body as the core writes it in process, where nothing is ever released. */
async function expectedBodies(target: Flagmount): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const user of USERS) {
    const [pathname, query] = path(user).split('?') as [string, string];
    const response = await target.handler({ method: 'GET', path: pathname, query: [...new URLSearchParams(query)], headers: {}, body: { kind: 'none' } });
    out.set(user, bodyText(response)!);
  }
  return out;
}

async function fetchText(origin: string, user: string): Promise<string> {
  const response = await fetch(`${origin}/flags${path(user)}`);
  expect(response.status).toBe(200);
  return response.text();
}

/** Sequential, then all at once: each answer must be its own user's. */
async function checkAnswers(origin: string, expected: Map<string, string>): Promise<void> {
  for (const user of USERS.slice(0, 40)) expect(await fetchText(origin, user), user).toBe(expected.get(user));
  const all = await Promise.all(USERS.map(async (user) => [user, await fetchText(origin, user)] as const));
  for (const [user, text] of all) expect(text, user).toBe(expected.get(user));
}

const slabIds = new Map<ArrayBufferLike, number>();
/** A number per underlying buffer, so that places in different slabs never compare equal. */
const byteSlabs = (buffer: ArrayBufferLike) => slabIds.get(buffer) ?? (slabIds.set(buffer, slabIds.size), slabIds.size - 1);

/** 'finish' comes after the response reached the client: give the last ones a turn. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('evaluate answers lent to the socket', () => {
  for (const adapter of selectedAdapters()) {
    it(`${adapter.name}: every answer is its own user's, and sent bytes are ${adapter.name === 'koa' ? 'never' : 'all'} handed back`, async () => {
      const { instance: mounted, counts, places } = counted(await seededInstance());
      const expected = await expectedBodies(instance!);
      host = await adapter.listen(mounted, '/flags');
      await checkAnswers(host.origin, expected);
      await settle();
      expect(counts.lent).toBe(USERS.length + 40);
      // Koa's upstream middleware may keep `ctx.body` after Flagmount is done with it: nothing is lent there.
      expect(counts.released).toBe(adapter.name === 'koa' ? 0 : counts.lent);
      // One request at a time, each answer is sent before the next is written: it reuses the same bytes.
      const sequential = new Set(places.slice(0, 40).map(([buffer, offset]) => `${byteSlabs(buffer)}:${offset}`));
      if (adapter.name === 'koa') expect(sequential.size).toBe(40);
      else expect(sequential.size).toBeLessThanOrEqual(2);
    });
  }
});

describe('a host that keeps the payloads', () => {
  /** Payloads the host kept, by user, checked after every other request has been answered. */
  async function checkKept(origin: string, kept: Map<string, () => string>, expected: Map<string, string>, counts: Counted['counts']) {
    await checkAnswers(origin, expected);
    await settle();
    expect(kept.size).toBe(USERS.length);
    for (const [user, text] of kept) expect(text(), user).toBe(expected.get(user));
    expect(counts.released).toBe(0);
  }
  const userOf = (url: string) => JSON.parse(new URL(url, 'http://x').searchParams.get('contextJson')!).user.id as string;

  it('express: a middleware that wraps res.end keeps what it was given', async () => {
    const { instance: mounted, counts } = counted(await seededInstance());
    const expected = await expectedBodies(instance!);
    const kept = new Map<string, () => string>();
    const app = express();
    app.use((req, res, next) => {
      const end = res.end.bind(res) as (chunk?: unknown) => typeof res;
      res.end = ((chunk?: unknown) => {
        if (Buffer.isBuffer(chunk)) kept.set(userOf(req.originalUrl), () => chunk.toString('utf8'));
        return end(chunk);
      }) as typeof res.end;
      next();
    });
    app.use('/flags', flagmountExpress(mounted));
    host = await listenNode(createServer(app));
    await checkKept(host.origin, kept, expected, counts);
  });

  it('fastify: an onSend hook keeps the payload', async () => {
    const { instance: mounted, counts } = counted(await seededInstance());
    const expected = await expectedBodies(instance!);
    const kept = new Map<string, () => string>();
    const app = Fastify();
    app.addHook('onSend', async (request, _reply, payload) => {
      if (Buffer.isBuffer(payload)) kept.set(userOf(request.url), () => payload.toString('utf8'));
      return payload;
    });
    await app.register(flagmountFastify, { instance: mounted, prefix: '/flags' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    host = { origin: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, server: app.server, close: () => app.close() };
    await checkKept(host.origin, kept, expected, counts);
  });

  it('koa: an upstream middleware keeps ctx.body', async () => {
    const { instance: mounted, counts } = counted(await seededInstance());
    const expected = await expectedBodies(instance!);
    const kept = new Map<string, () => string>();
    const app = new Koa();
    app.use(async (ctx, next) => {
      await next();
      const body: unknown = ctx.body;
      if (Buffer.isBuffer(body)) kept.set(userOf(ctx.url), () => body.toString('utf8'));
    });
    app.use(flagmountKoa(mounted, { prefix: '/flags' }));
    host = await listenNode(createServer(app.callback()));
    await checkKept(host.origin, kept, expected, counts);
  });
});
