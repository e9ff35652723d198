import { createFlagmount, REPOSITORY_NAMES, type Flagmount, type FlagmountOptions, type Storage } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import type { AdapterFactory, HostServer } from '../http/support/adapters.js';
import { MANAGEMENT_KEY, SDK_KEYS } from '../http/support/harness.js';

export { MANAGEMENT_KEY, SDK_KEYS };

/** A memory store whose every repository call and transaction rejects with `error` while it is set. */
export interface FailingStorage {
  storage: Storage;
  fail(error: Error | undefined): void;
}

export function failingStorage(inner: Storage = memoryStorage()): FailingStorage {
  let failure: Error | undefined;
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>, self: unknown) =>
    (...args: A): Promise<R> =>
      failure ? Promise.reject(failure) : fn.apply(self, args);
  const wrapRepository = (repository: object) =>
    new Proxy(repository, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? guard(value as (...args: unknown[]) => Promise<unknown>, target) : value;
      },
    });
  const repositories = new Map<PropertyKey, object>(REPOSITORY_NAMES.map((name) => [name, wrapRepository(inner[name])]));
  const storage = new Proxy(inner, {
    get(target, property) {
      const repository = repositories.get(property);
      if (repository) return repository;
      if (property === 'transaction') return guard(target.transaction, target);
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { storage, fail: (error) => (failure = error) };
}

export interface SafetyHost {
  instance: Flagmount;
  host: HostServer;
  /** Errors that reached the host's own error handler. */
  hostErrors: unknown[];
  /** Messages Flagmount sent to its injected logger. */
  logged: Array<{ level: string; message: string }>;
  get(path: string, key?: string | null, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** One host app per adapter, Flagmount at `/flags` with the bootstrap keys of the HTTP suite and a recording logger. */
export async function startSafetyHost(
  adapter: AdapterFactory,
  options: Partial<FlagmountOptions> = {},
): Promise<SafetyHost> {
  const logged: SafetyHost['logged'] = [];
  const record = (level: string) => (message: string) => logged.push({ level, message });
  const instance = await createFlagmount({
    storage: memoryStorage(),
    bootstrap: { managementKey: MANAGEMENT_KEY, sdkKeys: SDK_KEYS },
    logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
    ...options,
  });
  const hostErrors: unknown[] = [];
  const host = await adapter.listen(instance, '/flags', { onHostError: (error) => hostErrors.push(error) });
  return {
    instance,
    host,
    hostErrors,
    logged,
    get(path, key = MANAGEMENT_KEY, init = {}) {
      const headers = new Headers(init.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      return fetch(host.origin + path, { ...init, headers });
    },
    async close() {
      await host.close();
      await instance.close();
    },
  };
}
