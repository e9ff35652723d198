import { bodyText, createFlagmount, type Flagmount, type FlagmountOptions, type Storage } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selectedAdapters } from '../http/support/adapters.js';
import { MANAGEMENT_KEY, SDK_KEYS, startHarness, type Harness } from '../http/support/harness.js';
import { controllableStorage } from '../support/storage-wrappers.js';
import { errorBodyProblems } from './support/error-body.js';

/**
 * Limits (issue 10): the request body limit (413 with the error body), contextJson's 16 KiB, the SSE connection cap
 * per environment (beyond it 503 with the error body), and the bounded ingestion queue (back-pressure 503, never
 * unbounded memory). Each check is a function returning the problems it found, so the self-checks at the end can
 * aim it at a deliberately broken build and see it fail.
 */

const secret = SDK_KEYS.development.secretKey;
const publishable = SDK_KEYS.development.publishableKey;
const BODY_LIMIT = 32 * 1024;

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}
type Send = (method: string, path: string, init?: { key?: string; body?: string; query?: Array<[string, string]>; chunked?: boolean }) => Promise<Answer>;

function httpSend(baseUrl: string): Send {
  return async (method, path, init = {}) => {
    const search = init.query?.length ? `?${new URLSearchParams(init.query).toString()}` : '';
    let body: BodyInit | undefined = init.body;
    if (init.body !== undefined && init.chunked) {
      const bytes = new TextEncoder().encode(init.body);
      // A stream has no Content-Length: the server must count while reading.
      body = new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
          controller.close();
        },
      });
    }
    const res = await fetch(baseUrl + path + search, {
      method,
      headers: { authorization: `Bearer ${init.key ?? secret}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body, duplex: 'half' } : {}),
    } as RequestInit);
    return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
  };
}

function handlerSend(instance: Flagmount): Send {
  return async (method, path, init = {}) => {
    const response = await instance.handler({
      method,
      path,
      query: init.query ?? [],
      headers: { authorization: `Bearer ${init.key ?? secret}`, 'content-type': 'application/json' },
      body: init.body === undefined ? { kind: 'none' } : { kind: 'raw', text: init.body },
    });
    return { status: response.status, contentType: response.headers['content-type'] ?? null, text: bodyText(response) ?? '' };
  };
}

/** A POST /event body of exactly `bytes` bytes (UTF-8). */
function eventOfBytes(bytes: number, event: string): string {
  const empty = JSON.stringify({ userId: 'u1', event, attributes: { pad: '' } });
  return JSON.stringify({ userId: 'u1', event, attributes: { pad: 'x'.repeat(bytes - Buffer.byteLength(empty)) } });
}

/** A context JSON text of exactly `bytes` bytes, padded with `char` (1 or 2 bytes in UTF-8). */
function contextOfBytes(bytes: number, char = 'x'): string {
  const empty = JSON.stringify({ user: { id: 'u1', pad: '' } });
  const room = bytes - Buffer.byteLength(empty);
  const unit = Buffer.byteLength(char);
  const pad = char.repeat(Math.floor(room / unit)) + 'x'.repeat(room % unit);
  const text = JSON.stringify({ user: { id: 'u1', pad } });
  if (Buffer.byteLength(text) !== bytes) throw new Error('contextOfBytes');
  return text;
}

// ---------------------------------------------------------------------------------------------------------------
// The checks

async function bodyLimitProblems(send: Send, storage: Storage, limit: number, chunked = false): Promise<string[]> {
  const problems: string[] = [];
  const atLimit = await send('POST', '/event', { body: eventOfBytes(limit, 'at-limit'), chunked });
  if (atLimit.status !== 200) problems.push(`a body of exactly ${limit} bytes answered ${atLimit.status}: ${atLimit.text.slice(0, 200)}`);
  const before = JSON.stringify(await storage.dump());
  for (const size of [limit + 1, limit * 4]) {
    const over = await send('POST', '/event', { body: eventOfBytes(size, `over-${size}`), chunked });
    if (over.status !== 413) problems.push(`a body of ${size} bytes answered ${over.status}, not 413`);
    else problems.push(...errorBodyProblems(over.status, over.contentType, over.text).map((p) => `413: ${p}`));
  }
  if (JSON.stringify(await storage.dump()) !== before) problems.push('a body over the limit was stored');
  return problems;
}

async function contextLimitProblems(send: Send): Promise<string[]> {
  const problems: string[] = [];
  const get = (contextJson: string) => send('GET', '/features/evaluated', { key: publishable, query: [['contextJson', contextJson]] });
  for (const char of ['x', 'é']) {
    const ok = await get(contextOfBytes(16_384, char));
    if (ok.status !== 200) problems.push(`16384 bytes (${char}) answered ${ok.status}: ${ok.text.slice(0, 200)}`);
    const over = await get(contextOfBytes(16_385, char));
    if (over.status !== 400) problems.push(`16385 bytes (${char}) answered ${over.status}, not 400`);
    else {
      problems.push(...errorBodyProblems(over.status, over.contentType, over.text));
      const body = JSON.parse(over.text) as { error: { code: string }; issues?: Record<string, string[]> };
      if (body.error.code !== 'invalid_request' || !body.issues?.['contextJson']) problems.push(`16385 bytes: ${over.text.slice(0, 200)}`);
    }
  }
  return problems;
}

/** Opens `cap` streams on one environment, then one more; also checks the cap is per environment and slots free up. */
async function sseCapProblems(h: Harness, cap: number): Promise<string[]> {
  const problems: string[] = [];
  const controllers: AbortController[] = [];
  const open = async (path: string, key: string) => {
    const controller = new AbortController();
    controllers.push(controller);
    const res = await fetch(`${h.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, signal: controller.signal });
    const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? undefined : await res.text();
    return { res, text, controller };
  };
  try {
    const devEnv = h.envs.development.id;
    for (let i = 0; i < cap; i++) {
      const { res } = await open(i % 2 ? '/sse/client' : '/sse/server', i % 2 ? publishable : secret);
      if (res.status !== 200) problems.push(`stream ${i + 1} of ${cap} answered ${res.status}`);
    }
    const beyond = await open('/sse/server', secret);
    if (beyond.res.status !== 503) problems.push(`stream ${cap + 1} answered ${beyond.res.status}, not 503`);
    else problems.push(...errorBodyProblems(503, beyond.res.headers.get('content-type'), beyond.text));
    const other = await open('/sse/server', SDK_KEYS.production.secretKey);
    if (other.res.status !== 200) problems.push(`another environment's stream answered ${other.res.status} (the cap is per environment)`);
    const features = await fetch(`${h.baseUrl}/features`, { headers: { authorization: `Bearer ${secret}` } });
    if (features.status !== 200) problems.push(`GET /features answered ${features.status} while the streams were at the cap`);
    // Closing one stream frees its slot.
    const openStreams = h.instance.services.streams.count(devEnv);
    controllers[0]!.abort();
    const deadline = Date.now() + 5000;
    while (h.instance.services.streams.count(devEnv) >= openStreams && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const again = await open('/sse/server', secret);
    if (again.res.status !== 200) problems.push(`after a stream closed, a new one answered ${again.res.status}`);
  } finally {
    for (const c of controllers) c.abort();
  }
  return problems;
}

interface QueueRun {
  problems: string[];
  accepted: number;
  refused: number;
  peakQueued: number;
}

/**
 * Floods POST /event at a store whose transactions are slow: the writer's queue must stay within `maxQueue`, the
 * overflow must be refused at once with 503 and the error body, every 200 must be stored, and the service must
 * accept again once the queue drains.
 */
async function queueBoundProblems(maxQueue: number, requests: number): Promise<QueueRun> {
  const { storage, control } = controllableStorage(memoryStorage());
  const instance = await createFlagmount({
    storage,
    bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS },
    ingestion: { maxQueue, maxBatch: 5, flushIntervalMs: 1 },
    logger: { error: () => {}, warn: () => {} },
  });
  const problems: string[] = [];
  const writer = instance.services.ingestion as unknown as { queued: number };
  let peakQueued = 0;
  const sampler = setInterval(() => (peakQueued = Math.max(peakQueued, writer.queued)), 1);
  try {
    control.delayTransactions(150);
    const send = handlerSend(instance);
    const answers = await Promise.all(
      Array.from({ length: requests }, async (_, i) => {
        const submitted = send('POST', '/event', { body: JSON.stringify({ userId: 'u1', event: `flood-${i}` }) });
        peakQueued = Math.max(peakQueued, writer.queued);
        return { i, answer: await submitted };
      }),
    );
    const accepted = answers.filter((a) => a.answer.status === 200);
    const refused = answers.filter((a) => a.answer.status === 503);
    const other = answers.filter((a) => a.answer.status !== 200 && a.answer.status !== 503);
    if (other.length) problems.push(`unexpected statuses ${other.map((a) => a.answer.status).join(', ')}`);
    if (!refused.length) problems.push(`no back-pressure: all ${requests} requests were queued`);
    for (const r of refused.slice(0, 3)) problems.push(...errorBodyProblems(503, r.answer.contentType, r.answer.text));
    if (peakQueued > maxQueue) problems.push(`the queue held ${peakQueued} items, above its bound of ${maxQueue}`);
    const envId = instance.bootstrap!.environments.find((e) => e.name === 'Development')!.id;
    const stored = new Set((await storage.events.listTracks(envId, 10_000)).map((t) => t.event));
    const lost = accepted.filter((a) => !stored.has(`flood-${a.i}`));
    if (lost.length) problems.push(`${lost.length} acknowledged events are not stored`);
    control.delayTransactions(0);
    const after = await send('POST', '/event', { body: JSON.stringify({ userId: 'u1', event: 'after-flood' }) });
    if (after.status !== 200) problems.push(`after the flood drained, a request answered ${after.status}`);
    return { problems, accepted: accepted.length, refused: refused.length, peakQueued };
  } finally {
    clearInterval(sampler);
    await instance.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

const OPTIONS: Partial<FlagmountOptions> = { maxBodyBytes: BODY_LIMIT, sse: { maxConnectionsPerEnvironment: 3, heartbeatMs: 100 } };

for (const adapter of selectedAdapters()) {
  describe(`${adapter.name}: limits`, () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it(`request body: ${BODY_LIMIT} bytes accepted, one byte more 413 with the error body, nothing stored`, async () => {
      h = await startHarness(adapter, { options: OPTIONS });
      expect(await bodyLimitProblems(httpSend(h.baseUrl), h.storage, BODY_LIMIT)).toEqual([]);
    });

    it('request body without Content-Length (chunked): the same limit, counted while reading', async () => {
      h = await startHarness(adapter, { options: OPTIONS });
      expect(await bodyLimitProblems(httpSend(h.baseUrl), h.storage, BODY_LIMIT, true)).toEqual([]);
    });

    it('contextJson: 16384 bytes accepted, 16385 a 400 (bytes, not characters)', async () => {
      h = await startHarness(adapter, { options: OPTIONS });
      expect(await contextLimitProblems(httpSend(h.baseUrl))).toEqual([]);
    });

    it('SSE: 3 streams per environment, the 4th 503 with the error body; per environment; slots free up', async () => {
      h = await startHarness(adapter, { options: OPTIONS });
      expect(await sseCapProblems(h, 3)).toEqual([]);
    });
  });
}

describe('ingestion queue: bounded, with back-pressure', () => {
  it('a flood against a slow store is refused beyond maxQueue (503), every 200 is stored, and it recovers', async () => {
    const run = await queueBoundProblems(20, 200);
    process.stdout.write(`[limits] queue bound 20: ${run.accepted} accepted, ${run.refused} refused (503), peak queue ${run.peakQueued}\n`);
    expect(run.problems).toEqual([]);
    expect(run.accepted).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Self-checks: each check above fails on a build with the limit broken.

describe('limits self-check: deliberately broken builds are caught', () => {
  it('a build with no body limit is caught', async () => {
    const instance = await createFlagmount({ storage: memoryStorage(), bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS }, maxBodyBytes: Number.MAX_SAFE_INTEGER });
    try {
      const problems = await bodyLimitProblems(handlerSend(instance), instance.services.storage, BODY_LIMIT);
      expect(problems.join('\n')).toMatch(/not 413/);
      expect(problems.join('\n')).toMatch(/over the limit was stored/);
    } finally {
      await instance.close();
    }
  });

  it('a build whose contextJson limit is one byte too generous is caught', async () => {
    vi.resetModules();
    vi.doMock('../../packages/core/src/schemas/context.js', async (importOriginal) => ({
      ...(await importOriginal<typeof import('../../packages/core/src/schemas/context.js')>()),
      CONTEXT_JSON_MAX_BYTES: 16_385,
    }));
    try {
      const broken = await import('../../packages/core/src/create-flagmount.js');
      const instance = await broken.createFlagmount({ storage: memoryStorage(), bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS } });
      try {
        expect((await contextLimitProblems(handlerSend(instance))).join('\n')).toMatch(/16385 bytes \(x\) answered 200/);
      } finally {
        await instance.close();
      }
    } finally {
      vi.doUnmock('../../packages/core/src/schemas/context.js');
      vi.resetModules();
    }
  });

  it('a build with no SSE cap is caught', async () => {
    const h = await startHarness(selectedAdapters()[0]!, { options: { sse: { maxConnectionsPerEnvironment: 1_000_000, heartbeatMs: 100 } } });
    try {
      expect((await sseCapProblems(h, 3)).join('\n')).toMatch(/stream 4 answered 200, not 503/);
    } finally {
      await h.close();
    }
  });

  it('a writer with no queue bound is caught', async () => {
    const run = await queueBoundProblems(Number.MAX_SAFE_INTEGER, 200);
    expect(run.problems.join('\n')).toMatch(/no back-pressure/);
    const bounded = 20;
    expect(run.peakQueued).toBeGreaterThan(bounded);
  });
});
