import { connect } from 'node:net';
import { expect, it, vi } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { forEachProbeHost } from './support/probe.js';

forEachProbeHost('SSE streams', {}, (host) => {
  it('flushes the headers at once, streams events and releases the stream when the client leaves', async () => {
    const controller = new AbortController();
    // Nothing is written yet: the response headers alone must arrive (the node SDK's initialize() waits for them).
    const res = await withTimeout(host().fetch('/flags/stream', { signal: controller.signal }), 2000, 'SSE headers');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(host().probe.streams.opened).toBe(1);

    const reader = res.body!.getReader();
    for (const sink of host().probe.streams.sinks) sink.write('data: {"name":"flags-updated"}\n\n');
    const { value } = await withTimeout(reader.read(), 2000, 'first event');
    expect(new TextDecoder().decode(value)).toBe('data: {"name":"flags-updated"}\n\n');

    controller.abort();
    await vi.waitFor(() => expect(host().probe.streams.released).toBe(1), { timeout: 2000 });
    expect(host().hostErrors).toEqual([]);
  });

  it('a client that resets its socket mid-stream is no error of the host', async () => {
    const url = new URL(host().origin);
    const socket = connect(Number(url.port), url.hostname);
    socket.write(`GET /flags/stream HTTP/1.1\r\nhost: ${url.host}\r\naccept: text/event-stream\r\n\r\n`);
    await withTimeout(new Promise((resolve) => socket.once('data', resolve)), 2000, 'SSE headers');
    for (const sink of host().probe.streams.sinks) sink.write(': before\n\n');
    socket.resetAndDestroy();
    await vi.waitFor(() => expect(host().probe.streams.released).toBe(1), { timeout: 2000 });
    // Writes after the reset meet a dead socket: still nothing for the host.
    for (const sink of host().probe.streams.sinks) sink.write(': after\n\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host().hostErrors).toEqual([]);
  });

  it('ends the response when the stream ends', async () => {
    const res = await host().fetch('/flags/stream');
    for (const sink of host().probe.streams.sinks) {
      sink.write(': hello\n\n');
      sink.end();
    }
    expect(await withTimeout(res.text(), 2000, 'stream end')).toBe(': hello\n\n');
    await vi.waitFor(() => expect(host().probe.streams.released).toBe(1), { timeout: 2000 });
  });

  it('answers HEAD with the headers and opens no stream', async () => {
    const res = await withTimeout(host().fetch('/flags/stream', { method: 'HEAD' }), 2000, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(host().probe.streams.opened).toBe(0);
  });
});

// The real push route of the runtime API, through each adapter.
forEachAdapter((harness) => {
  it('serves /sse/server with its headers at once and frees the connection slot when the client leaves', async () => {
    const h = harness();
    const controller = new AbortController();
    const res = await withTimeout(
      fetch(`${h.baseUrl}/sse/server`, {
        headers: { authorization: `Bearer ${h.envs.development.secretKey}`, accept: 'text/event-stream' },
        signal: controller.signal,
      }),
      2000,
      'SSE headers',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(h.instance.services.streams.count()).toBe(1);
    controller.abort();
    await vi.waitFor(() => expect(h.instance.services.streams.count()).toBe(0), { timeout: 2000 });
  });
});

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
