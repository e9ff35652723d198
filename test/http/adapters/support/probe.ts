import { resolveOptions, silentLogger, StorageUnavailableError, type CoreRequest, type Flagmount, type FlagmountOptions, type StreamSink } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { Type } from '@sinclair/typebox';
import { afterEach, beforeEach, describe } from 'vitest';
import { createHandler } from '../../../../packages/core/src/http/handler.js';
import { InFlight } from '../../../../packages/core/src/http/in-flight.js';
import { defineRoute, raw, type RouteDefinition } from '../../../../packages/core/src/http/route.js';
import type { Services } from '../../../../packages/core/src/services.js';
import { selectedAdapters, type AdapterFactory, type HostOptions, type HostServer } from '../../support/adapters.js';

/**
 * A Flagmount-shaped instance around the real core handler with test-only routes. The framework-difference
 * tests need routes that echo what the core received, stream on demand and fail on purpose; they must not
 * depend on how the management or runtime routes behave.
 */
export interface Probe {
  instance: Flagmount;
  /** The last request each route saw. */
  seen: CoreRequest[];
  /** Open SSE sinks, and how many streams were opened and released. */
  streams: { sinks: Set<StreamSink>; opened: number; released: number };
}

export function createProbe(options: Partial<Omit<FlagmountOptions, 'storage'>> = {}): Probe {
  const storage = memoryStorage();
  const seen: CoreRequest[] = [];
  const streams: Probe['streams'] = { sinks: new Set(), opened: 0, released: 0 };
  const routes: RouteDefinition[] = [
    route('GET', '/', 'runtime', async ({ request }) => (seen.push(request), { probe: 'root' })),
    route('GET', '/apps', 'runtime', async ({ request }) => (seen.push(request), { probe: 'apps' })),
    defineRoute({
      ...meta('POST', '/echo', 'runtime'),
      body: Type.Unknown(),
      async handle({ request, body }) {
        seen.push(request);
        return { probe: 'echo', kind: request.body.kind, body: body ?? null };
      },
    }),
    // A header Node refuses: the adapters must still answer (500) without involving the host.
    route('GET', '/bad-header', 'runtime', async () => raw({ status: 200, headers: { 'x-bad': 'a\nb' }, body: '{}' })),
    route('GET', '/moved', 'runtime', async () => raw({ status: 308, headers: { location: 'apps' } })),
    route('GET', '/admin', 'management', async () => ({ probe: 'admin' })),
    route('GET', '/boom', 'runtime', async () => {
      throw new Error('probe failure');
    }),
    route('GET', '/down', 'runtime', async () => {
      throw new StorageUnavailableError('probe storage is down');
    }),
    route('GET', '/stream', 'runtime', async () =>
      raw({
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        stream: {
          open(sink) {
            streams.opened++;
            streams.sinks.add(sink);
            return () => {
              streams.released++;
              streams.sinks.delete(sink);
            };
          },
        },
      }),
    ),
  ];
  const services = {
    storage,
    logger: silentLogger,
    options: resolveOptions({ storage, ...options }),
    now: () => new Date(),
    inFlight: new InFlight(),
  } as unknown as Services;
  const instance = {
    handler: createHandler(services, routes),
    routes,
    services,
    bootstrap: undefined,
    async close() {
      for (const sink of streams.sinks) sink.end();
      await storage.close();
    },
  } as unknown as Flagmount;
  return { instance, seen, streams };
}

type Handle = RouteDefinition['handle'];

function meta(method: RouteDefinition['method'], path: string, surface: RouteDefinition['surface']) {
  return { method, path, surface, operationId: `probe${method}${path}`, summary: 'probe', tags: [], auth: { kind: 'public' as const } };
}

function route(method: RouteDefinition['method'], path: string, surface: RouteDefinition['surface'], handle: Handle) {
  return defineRoute({ ...meta(method, path, surface), handle: handle as never });
}

export interface ProbeHost {
  adapter: AdapterFactory['name'];
  probe: Probe;
  origin: string;
  /** Errors that reached the host's error handler. */
  hostErrors: unknown[];
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

export interface ProbeSetup {
  prefix?: string;
  host?: Omit<HostOptions, 'onHostError'>;
  instance?: Partial<Omit<FlagmountOptions, 'storage'>>;
}

/** Starts a probe host per adapter (`describe(adapter)`, fresh per test) and hands the suite a getter. */
export function forEachProbeHost(title: string, setup: ProbeSetup, suite: (host: () => ProbeHost) => void): void {
  for (const adapter of selectedAdapters()) {
    describe(`${adapter.name}: ${title}`, () => {
      let current: ProbeHost | undefined;
      let server: HostServer | undefined;
      beforeEach(async () => {
        const probe = createProbe(setup.instance);
        const hostErrors: unknown[] = [];
        server = await adapter.listen(probe.instance, setup.prefix ?? '/flags', {
          ...setup.host,
          onHostError: (error) => hostErrors.push(error),
        });
        const origin = server.origin;
        current = { adapter: adapter.name, probe, origin, hostErrors, fetch: (path, init) => fetch(origin + path, init) };
      });
      afterEach(async () => {
        await server?.close();
        await current?.probe.instance.close();
        current = undefined;
      });
      suite(() => {
        if (!current) throw new Error('probe host not started');
        return current;
      });
    });
  }
}

/** True when `body` is the spec's error body with `code`. */
export function isErrorBody(body: unknown, code: string): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.message === 'string' && error.code === code;
}
