import { afterEach, describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { bump } from './support/seed.js';

/** Reads an SSE response as text as it arrives. */
class StreamReader {
  text = '';
  private readonly controller = new AbortController();
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  done = false;
  response: Response | undefined;

  async open(url: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: this.controller.signal });
    this.response = response;
    if (response.ok && response.body) {
      this.reader = response.body.getReader();
      void this.pump();
    }
    return response;
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await this.reader!.read();
        if (done) break;
        this.text += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted
    }
    this.done = true;
  }

  async until(predicate: (text: string) => boolean, timeoutMs = 2000): Promise<void> {
    const started = Date.now();
    while (!predicate(this.text)) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out; got ${JSON.stringify(this.text)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  close(): void {
    this.controller.abort();
  }
}

const message = (version: number) => `data: {"name":"flags-updated","data":{"flagStateVersion":${version}}}\n\n`;

const open: StreamReader[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
const reader = () => {
  const s = new StreamReader();
  open.push(s);
  return s;
};

forEachAdapter(
  (h) => {
    describe('GET /sse/server and /sse/client', () => {
      it('/sse/server: 200 text/event-stream at once, the current version, then every change', async () => {
        const s = reader();
        const response = await s.open(`${h().baseUrl}/sse/server`, { authorization: `Bearer ${h().envs.development.secretKey}` });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        await s.until((t) => t.includes(message(0)));
        await bump(h().instance, h().appId, h().envs.development.id);
        await bump(h().instance, h().appId, h().envs.production.id);
        await bump(h().instance, h().appId, h().envs.development.id);
        await s.until((t) => t.includes(message(2)));
        expect(s.text.split('\n\n').filter((b) => b.startsWith('data:'))).toEqual([message(0), message(1), message(2)].map((m) => m.trim()));
      });

      it('/sse/client with ?publishableKey= and a context parameter', async () => {
        const s = reader();
        const context = encodeURIComponent(JSON.stringify({ user: { id: 'u1' } }));
        const response = await s.open(`${h().baseUrl}/sse/client?publishableKey=${h().envs.development.publishableKey}&reflag-sdk-version=browser-sdk%2F1.6.1&context=${context}`);
        expect(response.status).toBe(200);
        await s.until((t) => t.includes(message(0)));
        await bump(h().instance, h().appId, h().envs.development.id);
        await s.until((t) => t.includes(message(1)));
      });

      it('sends ":" heartbeats every heartbeatMs', async () => {
        const s = reader();
        await s.open(`${h().baseUrl}/sse/server`, { authorization: `Bearer ${h().envs.development.secretKey}` });
        await s.until((t) => t.split(':\n\n').length >= 3, 2000);
      });

      it('403 for a wrong key; /sse/server refuses the publishable key and secret keys in the query', async () => {
        const denied = await fetch(`${h().baseUrl}/sse/server`, { headers: { authorization: `Bearer ${h().envs.development.publishableKey}` } });
        expect(denied.status).toBe(403);
        const inQuery = await fetch(`${h().baseUrl}/sse/client?publishableKey=${h().envs.development.secretKey}`);
        expect(inQuery.status).toBe(403);
        const none = await fetch(`${h().baseUrl}/sse/client`);
        expect(none.status).toBe(403);
        expect((await none.json()).error.code).toBe('unauthorized');
      });

      it('caps connections per environment with a 503 error body', async () => {
        const auth = { authorization: `Bearer ${h().envs.development.secretKey}` };
        const first = reader();
        const second = reader();
        await first.open(`${h().baseUrl}/sse/server`, auth);
        await second.open(`${h().baseUrl}/sse/client?publishableKey=${h().envs.development.publishableKey}`);
        const third = await fetch(`${h().baseUrl}/sse/server`, { headers: auth });
        expect(third.status).toBe(503);
        expect(await third.json()).toEqual({ error: { code: 'not_available', message: expect.any(String) } });
        // Another environment has its own cap.
        const prod = reader();
        expect((await prod.open(`${h().baseUrl}/sse/server`, { authorization: `Bearer ${h().envs.production.secretKey}` })).status).toBe(200);
        first.close();
        const deadline = Date.now() + 2000;
        let again = 503;
        while (again === 503 && Date.now() < deadline) {
          const next = reader();
          again = (await next.open(`${h().baseUrl}/sse/server`, auth)).status;
          if (again === 503) await new Promise((r) => setTimeout(r, 20));
        }
        expect(again).toBe(200);
      });

      it('a HEAD answers the stream headers and takes no connection slot', async () => {
        const url = `${h().baseUrl}/sse/client?publishableKey=${h().envs.development.publishableKey}`;
        for (let i = 0; i < 5; i++) {
          const head = await fetch(url, { method: 'HEAD' });
          expect(head.status).toBe(200);
          expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
        }
        // The cap is 2: had the HEADs taken slots, these would be 503 for the next 30 s.
        expect((await reader().open(url)).status).toBe(200);
        expect((await reader().open(url)).status).toBe(200);
      });

      it('ends the streams of a rotated key, and only those', async () => {
        const env = h().envs.production;
        const client = reader();
        const server = reader();
        await client.open(`${h().baseUrl}/sse/client?publishableKey=${env.publishableKey}`);
        await server.open(`${h().baseUrl}/sse/server`, { authorization: `Bearer ${env.secretKey}` });
        await client.until((t) => t.includes(message(0)));
        await server.until((t) => t.includes(message(0)));
        const rotated = await h().request('POST', `/apps/${h().appId}/environments/${env.id}/rotate-keys`, { body: { which: 'publishable' } });
        expect(rotated.status).toBe(200);
        const deadline = Date.now() + 2000;
        while (!client.done && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(client.done).toBe(true);
        // The secret key still opens /sse/server: that stream keeps its updates.
        await bump(h().instance, h().appId, env.id);
        await server.until((t) => t.includes(message(1)));
        expect(server.done).toBe(false);
        const refused = await fetch(`${h().baseUrl}/sse/client?publishableKey=${env.publishableKey}`);
        expect(refused.status).toBe(403);
      });

      it('ends a stream whose query key is rotated even though its header key still holds, as a new request would be refused', async () => {
        const env = h().envs.production;
        const both = reader();
        await both.open(`${h().baseUrl}/sse/server?publishableKey=${env.publishableKey}`, { authorization: `Bearer ${env.secretKey}` });
        await both.until((t) => t.includes(message(0)));
        await h().request('POST', `/apps/${h().appId}/environments/${env.id}/rotate-keys`, { body: { which: 'publishable' } });
        const deadline = Date.now() + 2000;
        while (!both.done && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(both.done).toBe(true);
      });

      it('close() ends every stream', async () => {
        const s = reader();
        await s.open(`${h().baseUrl}/sse/server`, { authorization: `Bearer ${h().envs.development.secretKey}` });
        await s.until((t) => t.includes(message(0)));
        h().instance.services.streams.close();
        const deadline = Date.now() + 2000;
        while (!s.done && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(s.done).toBe(true);
      });
    });
  },
  { options: { sse: { heartbeatMs: 100, maxConnectionsPerEnvironment: 2 } } },
);
