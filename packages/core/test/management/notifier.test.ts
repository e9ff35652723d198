import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger, type Logger } from '../../src/logger.js';
import { Notifier } from '../../src/management/notifications/notifier.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

async function webhook(statuses: number[]): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(text) });
      res.statusCode = statuses[received.length - 1] ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
}

const until = async (predicate: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

const servers: Server[] = [];
const notifiers: Notifier[] = [];
afterEach(async () => {
  await Promise.all(notifiers.splice(0).map((n) => n.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('Notifier', () => {
  it('POSTs JSON to the configured destination with a delivery id', async () => {
    const hook = await webhook([200]);
    servers.push(hook.server);
    const notifier = new Notifier({ chat: hook.url, defaults: [] }, silentLogger);
    notifiers.push(notifier);
    notifier.notify(['chat'], { type: 't', value: 1 });
    await until(() => hook.received.length === 1);
    expect(hook.received[0]!.headers['content-type']).toBe('application/json');
    expect(hook.received[0]!.headers['x-flagmount-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(hook.received[0]!.body).toMatchObject({ type: 't', value: 1, destination: 'chat' });
  });

  it('uses the defaults when the request omits notifications, and nothing for []', async () => {
    const hook = await webhook([]);
    servers.push(hook.server);
    const notifier = new Notifier({ chat: hook.url, issueTrackerComment: hook.url, defaults: ['issueTrackerComment'] }, silentLogger);
    notifiers.push(notifier);
    expect(notifier.resolve(undefined).map((d) => d.destination)).toEqual(['issueTrackerComment']);
    expect(notifier.resolve([])).toEqual([]);
    expect(notifier.resolve(['chat', 'issueTrackerComment']).map((d) => d.destination)).toEqual(['chat', 'issueTrackerComment']);
    notifier.notify([], { type: 'none' });
    notifier.notify(undefined, { type: 'default' });
    await until(() => hook.received.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(hook.received.map((r) => r.body['destination'])).toEqual(['issueTrackerComment']);
  });

  it('skips destinations without a URL', () => {
    const notifier = new Notifier({ defaults: [] }, silentLogger);
    notifiers.push(notifier);
    expect(notifier.resolve(['chat'])).toEqual([]);
    expect(() => notifier.notify(['chat'], {})).not.toThrow();
  });

  it('retries 5xx and network errors with the same delivery id, then stops at success', async () => {
    const hook = await webhook([503, 500, 200]);
    servers.push(hook.server);
    const notifier = new Notifier({ chat: hook.url, defaults: [] }, silentLogger, { retryDelaysMs: [10, 10, 10] });
    notifiers.push(notifier);
    notifier.notify(['chat'], { n: 1 });
    await until(() => hook.received.length === 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map((r) => r.headers['x-flagmount-delivery'])).size).toBe(1);
  });

  it('does not retry a 4xx refusal and logs a warning', async () => {
    const hook = await webhook([400]);
    servers.push(hook.server);
    const warn = vi.fn();
    const logger: Logger = { ...silentLogger, warn };
    const notifier = new Notifier({ chat: hook.url, defaults: [] }, logger, { retryDelaysMs: [10] });
    notifiers.push(notifier);
    notifier.notify(['chat'], {});
    await until(() => warn.mock.calls.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(hook.received).toHaveLength(1);
  });

  it('gives up after the last retry and never throws', async () => {
    const fetch = vi.fn(async () => {
      throw new Error('ECONNREFUSED');
    });
    const warn = vi.fn();
    const notifier = new Notifier({ chat: 'http://127.0.0.1:1/x', defaults: [] }, { ...silentLogger, warn }, { retryDelaysMs: [5, 5], fetch });
    notifiers.push(notifier);
    notifier.notify(['chat'], {});
    await until(() => warn.mock.calls.length === 1);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[0]![1]).toMatchObject({ attempts: 3, failure: 'ECONNREFUSED' });
  });

  it('close() cancels pending retries and returns promptly', async () => {
    const fetch = vi.fn(async () => new Response('', { status: 500 }));
    const notifier = new Notifier({ chat: 'http://x.invalid/', defaults: [] }, silentLogger, { retryDelaysMs: [60_000], fetch });
    notifier.notify(['chat'], {});
    await until(() => fetch.mock.calls.length === 1);
    await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    await notifier.close();
    expect(Date.now() - started).toBeLessThan(1000);
    notifier.notify(['chat'], {});
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('close() waits briefly for an in-flight delivery, then aborts it', async () => {
    let aborted = false;
    const fetch = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
    );
    const notifier = new Notifier({ chat: 'http://x.invalid/', defaults: [] }, silentLogger, { closeGraceMs: 30, fetch: fetch as typeof globalThis.fetch });
    notifier.notify(['chat'], {});
    const started = Date.now();
    await notifier.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(aborted).toBe(true);
  });
});
