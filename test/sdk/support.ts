import type { Filter } from '@flagmount/engine';
import { expect } from 'vitest';
import type { Harness } from '../http/support/harness.js';

/** Flags and targeting through the management API, as a team would set them up. */
export async function createFlag(h: Harness, key: string, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key, name: key, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function putTargeting(h: Harness, key: string, envId: string, rules: Filter[], variants?: unknown[]): Promise<number> {
  const res = await h.request('PUT', `/apps/${h.appId}/flags/${key}/targeting/${envId}`, {
    body: { rules: rules.map((filter) => ({ filter })), ...(variants ? { config: { variants } } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.flagStateVersion as number;
}

/** Management rows 9/11: a specific target for one user, upserted first as the spec asks (an unknown user is a 404). */
export async function targetUser(h: Harness, envId: string, userId: string, flagKey: string): Promise<number> {
  const user = `/apps/${h.appId}/envs/${envId}/users/${encodeURIComponent(userId)}`;
  const upserted = await h.request('PUT', user, { body: {} });
  expect(upserted.status, JSON.stringify(upserted.body)).toBe(200);
  const res = await h.request('PATCH', `${user}/flags`, {
    body: { updates: [{ flagKey, specificTargetValue: true }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.flagStateVersion as number;
}

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  args: unknown[];
}

/** A logger for the SDKs that keeps everything, so tests can assert nothing went wrong. */
export function captureLogger() {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (message: unknown, ...args: unknown[]) =>
    void entries.push({ level, message: String(message), args });
  return {
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    entries,
    problems: () => entries.filter((e) => e.level === 'warn' || e.level === 'error'),
  };
}

/** Polls `check` until it holds or `timeoutMs` passes; resolves with the elapsed milliseconds. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

type Listener = (event: { data?: string; target?: { readyState: number } }) => void;

/**
 * A minimal EventSource over fetch for the browser SDK in Node (it accepts an `eventSourceFactory`): default
 * `message` events only, which is all Flagmount sends.
 */
export function fetchEventSourceFactory() {
  const sources: Array<{ close(): void }> = [];
  const factory = (url: string) => {
    const listeners = new Map<string, Listener[]>();
    const controller = new AbortController();
    const emit = (type: string, event: Parameters<Listener>[0]) => listeners.get(type)?.forEach((l) => l(event));
    void (async () => {
      try {
        const res = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
        if (!res.ok || !res.body) return emit('error', { target: { readyState: 2 } });
        emit('open', {});
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buffered = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffered += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buffered.indexOf('\n\n')) >= 0) {
            const block = buffered.slice(0, cut);
            buffered = buffered.slice(cut + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).replace(/^ /, ''));
            if (data.length) emit('message', { data: data.join('\n') });
          }
        }
      } catch {
        // closed
      }
    })();
    const source = {
      addEventListener: (type: string, cb: Listener) => void listeners.set(type, [...(listeners.get(type) ?? []), cb]),
      close: () => controller.abort(),
    };
    sources.push(source);
    return source;
  };
  return { factory, closeAll: () => sources.forEach((s) => s.close()) };
}
