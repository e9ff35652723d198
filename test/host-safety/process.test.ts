import { afterEach, describe, expect, it, vi } from 'vitest';
import { selectedAdapters } from '../http/support/adapters.js';
import { SDK_KEYS, startSafetyHost, type SafetyHost } from './support.js';

/** Process-wide events a library must never listen to: they belong to the host (architecture.md, "Host safety"). */
const GLOBAL_EVENTS = ['uncaughtException', 'unhandledRejection', 'SIGINT', 'SIGTERM', 'exit', 'beforeExit', 'warning'] as const;
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

const listenerCounts = () => Object.fromEntries(GLOBAL_EVENTS.map((event) => [event, process.listenerCount(event)]));

for (const adapter of selectedAdapters()) {
  describe(`${adapter.name}: the host process stays the host's`, () => {
    let current: SafetyHost | undefined;
    afterEach(async () => {
      await current?.close();
      current = undefined;
      vi.restoreAllMocks();
    });

    it('adds no process listeners, never calls process.exit and never writes to the console', async () => {
      const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
        throw new Error(`process.exit(${String(code)}) was called`);
      });
      const consoleSpies = CONSOLE_METHODS.map((method) => vi.spyOn(console, method));
      const before = listenerCounts();

      current = await startSafetyHost(adapter, { sse: { heartbeatMs: 50 } });
      const secret = SDK_KEYS.development.secretKey;
      expect((await current.get('/flags/apps')).status).toBe(200);
      expect((await current.get('/flags/features', secret)).status).toBe(200);
      expect((await current.get('/flags/nope')).status).toBe(404);
      const event = await current.get('/flags/event', secret, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: 'u1', event: 'clicked' }),
      });
      expect(event.status).toBe(200);
      const controller = new AbortController();
      const stream = await current.get('/flags/sse/server', secret, { signal: controller.signal });
      expect(stream.status).toBe(200);
      await stream.body!.getReader().read();
      // Let a heartbeat or two go out while the stream is open.
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(listenerCounts()).toEqual(before);
      controller.abort();

      await current.close();
      current = undefined;
      expect(listenerCounts()).toEqual(before);
      expect(exit).not.toHaveBeenCalled();
      for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
    });
  });
}
