import { createFlagmount, type Flagmount, type FlagmountOptions, type Storage } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { afterEach, beforeEach, describe } from 'vitest';
import { selectedAdapters, type AdapterFactory, type HostOptions, type HostServer } from './adapters.js';

export const MANAGEMENT_KEY = 'fmk_test_management_key_0123456789abcdefghij';
export const SDK_KEYS = {
  development: { publishableKey: 'pub_fm_dev_0123456789abcdefghijklmno', secretKey: 'sec_fm_dev_0123456789abcdefghijklmno' },
  production: { publishableKey: 'pub_fm_prd_0123456789abcdefghijklmno', secretKey: 'sec_fm_prd_0123456789abcdefghijklmno' },
};

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** Bearer token; `null` sends no Authorization header. Defaults to the management key. */
  key?: string | null;
  body?: unknown;
  /** Sent as-is (no JSON encoding), e.g. broken JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | Array<string | number>>;
}

export interface Harness {
  adapter: AdapterFactory['name'];
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `origin + prefix`, e.g. `http://127.0.0.1:PORT/flags`. */
  baseUrl: string;
  instance: Flagmount;
  storage: Storage;
  managementKey: string;
  orgId: string;
  appId: string;
  envs: {
    development: { id: string; publishableKey: string; secretKey: string };
    production: { id: string; publishableKey: string; secretKey: string };
  };
  /** Any request below the mount; JSON bodies are parsed. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  dump(): Promise<Record<string, unknown[]>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  prefix?: string;
  storage?: Storage;
  options?: Partial<Omit<FlagmountOptions, 'storage'>>;
  /** The host app around the mount: its body parser, the mount's options (`authenticate`…). */
  host?: HostOptions;
}

export async function startHarness(adapter: AdapterFactory, opts: HarnessOptions = {}): Promise<Harness> {
  const storage = opts.storage ?? memoryStorage();
  const prefix = opts.prefix ?? '/flags';
  const instance = await createFlagmount({
    storage,
    bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS },
    ...opts.options,
  });
  let host: HostServer;
  try {
    host = await adapter.listen(instance, prefix, opts.host);
  } catch (error) {
    await instance.close();
    throw error;
  }
  const envList = await storage.environments.listByApp(instance.bootstrap!.appId);
  const env = (name: string) => {
    const e = envList.find((x) => x.name === name)!;
    return { id: e.id, publishableKey: e.publishableKey, secretKey: e.secretKey };
  };
  const baseUrl = host.origin + prefix;

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(name, String(v));
      else url.searchParams.append(name, String(value));
    }
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? MANAGEMENT_KEY : options.key;
    if (key !== null) headers['authorization'] ??= `Bearer ${key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    adapter: adapter.name,
    origin: host.origin,
    baseUrl,
    instance,
    storage,
    managementKey: MANAGEMENT_KEY,
    orgId: instance.bootstrap!.organizationId,
    appId: instance.bootstrap!.appId,
    envs: { development: env('Development'), production: env('Production') },
    request,
    dump: () => storage.dump(),
    async close() {
      await host.close();
      await instance.close();
    },
  };
}

/**
 * Registers `suite` once per adapter (`describe('express', …)`, …) with a fresh host app and store per test.
 * The suite reads the current harness through the getter.
 */
export function forEachAdapter(suite: (harness: () => Harness, adapter: AdapterFactory) => void, opts: HarnessOptions = {}): void {
  for (const adapter of selectedAdapters()) {
    describe(adapter.name, () => {
      let current: Harness | undefined;
      beforeEach(async () => {
        current = await startHarness(adapter, opts);
      });
      afterEach(async () => {
        await current?.close();
        current = undefined;
      });
      suite(() => {
        if (!current) throw new Error('harness not started');
        return current;
      }, adapter);
    });
  }
}
