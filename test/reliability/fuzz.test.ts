import { createFlagmount, HttpError, type CoreHandler, type CoreRequest, type Flagmount, type FlagmountOptions, type RouteDefinition } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterAll, describe, expect, it } from 'vitest';
import { errorResponse } from '../../packages/core/src/http/handler.js';
import { selectedAdapters } from '../http/support/adapters.js';
import { MANAGEMENT_KEY, SDK_KEYS, startHarness } from '../http/support/harness.js';
import { createFixture, emptyStats, fuzzRoute, handlerTarget, httpTarget, type FuzzStats, type FuzzTarget } from './support/fuzz-check.js';

/**
 * Fuzzing every route of the table (issue 10). Generated requests — wrong types, missing and extra fields, huge
 * strings, deep nesting, odd unicode, numbers at the limits, bad JSON, wrong content types, repeated query
 * parameters, odd path parameters, wrong keys — must never get a 5xx, every 4xx carries the spec's error body, and
 * a rejected request leaves `storage.dump()` exactly as it was.
 *
 * CI: FUZZ_RUNS (200) per route straight into `instance.handler`, plus ADAPTER_RUNS per route through each real
 * adapter. FLAGMOUNT_FUZZ_LONG=1: 100,000 handler runs in total, and 20× the adapter sample.
 * FLAGMOUNT_FUZZ_SEED replays a failure.
 */

const LONG = process.env['FLAGMOUNT_FUZZ_LONG'] === '1';
const LONG_TOTAL = 100_000;

// Small limits so the rarely-hit paths (413, waitForVersion timeouts) are exercised cheaply.
const FUZZ_OPTIONS: Partial<FlagmountOptions> = {
  dashboard: true,
  maxBodyBytes: 64 * 1024,
  waitForVersionTimeoutMs: 20,
  ingestion: { flushIntervalMs: 1 },
  logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
};

async function freshInstance(): Promise<Flagmount> {
  return createFlagmount({ storage: memoryStorage(), bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS }, ...FUZZ_OPTIONS });
}

// The route table, read from an instance: a route added later is fuzzed without touching this file.
const tableInstance = await freshInstance();
const ROUTES: readonly RouteDefinition[] = tableInstance.routes;
await tableInstance.close();

const FUZZ_RUNS = LONG ? Math.ceil(LONG_TOTAL / ROUTES.length) : 200;
const ADAPTER_RUNS = LONG ? 300 : 15;

const totals = { handler: emptyStats(), adapters: emptyStats() };
const add = (into: FuzzStats, from: FuzzStats) => {
  into.runs += from.runs;
  into.skipped += from.skipped;
  into.rejected += from.rejected;
  into.accepted += from.accepted;
  for (const [status, n] of Object.entries(from.statuses)) into.statuses[Number(status)] = (into.statuses[Number(status)] ?? 0) + n;
};

afterAll(() => {
  const line = (name: string, s: FuzzStats) =>
    `${name}: ${s.runs} runs (${s.accepted} accepted, ${s.rejected} rejected, ${s.skipped} skipped) statuses ${JSON.stringify(s.statuses)}`;
  process.stdout.write(`[fuzz] ${ROUTES.length} routes, ${FUZZ_RUNS} handler runs per route\n[fuzz] ${line('handler', totals.handler)}\n[fuzz] ${line('adapters', totals.adapters)}\n`);
});

const label = (route: RouteDefinition) => `${route.method} ${route.path}`;

describe(`fuzz: every route of the table, ${FUZZ_RUNS} generated requests each, straight into the handler`, () => {
  it('covers the whole table (management, runtime, OFREP, dashboard, OpenAPI)', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(50);
    expect(ROUTES.some((r) => r.surface === 'runtime')).toBe(true);
    expect(ROUTES.some((r) => r.path === '/features/evaluated')).toBe(true);
    expect(ROUTES.some((r) => r.path === '/apps/{appId}/flags' && r.method === 'POST')).toBe(true);
  });

  for (const route of ROUTES) {
    it(label(route), { timeout: LONG ? 600_000 : 60_000 }, async () => {
      const instance = await freshInstance();
      try {
        const fixture = await createFixture(instance);
        const stats = emptyStats();
        const failure = await fuzzRoute(route, fixture, handlerTarget(instance.handler, instance.services), FUZZ_RUNS, stats);
        add(totals.handler, stats);
        expect(failure).toBeUndefined();
        expect(stats.runs).toBeGreaterThanOrEqual(FUZZ_RUNS);
      } finally {
        await instance.close();
      }
    });
  }
});

describe(`fuzz: a sample of ${ADAPTER_RUNS} requests per route through each real adapter`, () => {
  for (const adapter of selectedAdapters()) {
    it(adapter.name, { timeout: LONG ? 1_800_000 : 120_000 }, async () => {
      const failures: string[] = [];
      // One host for the whole table: starting a framework per route would cost more than the requests.
      const harness = await startHarness(adapter, { options: FUZZ_OPTIONS });
      try {
        const fixture = await createFixture(harness.instance);
        const target = httpTarget(harness.baseUrl, harness.instance.services, adapter.name);
        for (const route of ROUTES) {
          const stats = emptyStats();
          const failure = await fuzzRoute(route, fixture, target, ADAPTER_RUNS, stats);
          add(totals.adapters, stats);
          if (failure) failures.push(failure);
          // A generated rotate-keys may have replaced the SDK keys: aim the next routes at the current ones.
          const dev = await harness.storage.environments.get(fixture.ids['envId']!);
          if (dev) fixture.keys = { ...fixture.keys, secret: dev.secretKey, publishable: dev.publishableKey };
        }
      } finally {
        await harness.close();
      }
      expect(failures, failures.join('\n\n')).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Self-check: the same fuzzer, aimed at deliberately broken builds, must catch each broken invariant.

/** Wraps a handler; `broken` decides per request what goes wrong. */
function brokenHandler(inner: CoreHandler, broken: (request: CoreRequest, handle: CoreHandler) => Promise<import('@flagmount/core').CoreResponse | undefined>): CoreHandler {
  return async (request) => (await broken(request, inner)) ?? inner(request);
}

const isBadJson = (request: CoreRequest) => {
  if (request.body.kind !== 'raw' || !request.body.text.trim()) return false;
  try {
    JSON.parse(request.body.text);
    return false;
  } catch {
    return true;
  }
};

describe('fuzz self-check: each invariant catches a deliberately broken build', () => {
  const route = ROUTES.find((r) => r.method === 'POST' && r.path === '/apps/{appId}/flags')!;

  async function fuzzBroken(wrap: (instance: Flagmount) => CoreHandler): Promise<string | undefined> {
    const instance = await freshInstance();
    try {
      const fixture = await createFixture(instance);
      const target: FuzzTarget = handlerTarget(wrap(instance), instance.services, 'broken');
      return await fuzzRoute(route, fixture, target, 200);
    } finally {
      await instance.close();
    }
  }

  it('a handler that leaks a 500 (a JSON.parse error not caught) is caught', async () => {
    const failure = await fuzzBroken((instance) =>
      brokenHandler(instance.handler, async (request) =>
        isBadJson(request) ? errorResponse(new HttpError(500, 'unknown_error', 'Unexpected token')) : undefined,
      ),
    );
    expect(failure).toMatch(/answered 500/);
  });

  it('a handler whose 400 has a home-made error body is caught', async () => {
    const failure = await fuzzBroken((instance) =>
      brokenHandler(instance.handler, async (request, handle) => {
        const response = await handle(request);
        if (response.status !== 400) return response;
        return { ...response, body: JSON.stringify({ message: 'Bad Request', statusCode: 400 }) };
      }),
    );
    expect(failure).toMatch(/no error object/);
  });

  it('a handler that writes before validating (a rejected request leaves a row behind) is caught', async () => {
    let n = 0;
    const failure = await fuzzBroken((instance) =>
      brokenHandler(instance.handler, async (request, handle) => {
        const response = await handle(request);
        if (response.status === 400) {
          await instance.services.storage.members.upsert({ id: `leak${n++}`, orgId: 'x', name: 'x', email: 'x@x.x', avatarUrl: null });
        }
        return response;
      }),
    );
    expect(failure).toMatch(/store changed although the request was rejected/);
  });
});
