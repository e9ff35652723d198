import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestFlags } from './request-flags.js';

/**
 * `flags.current()`: the request's flags from anywhere below its handler. The AsyncLocalStorage is made only when
 * a host turns `current` on, so a host that does not use it pays for no async context tracking at all.
 */
export class RequestScope {
  #storage: AsyncLocalStorage<RequestFlags> | undefined;

  enable(): void {
    this.#storage ??= new AsyncLocalStorage();
  }

  get enabled(): boolean {
    return this.#storage !== undefined;
  }

  /** Runs `fn` (the rest of the request) with `flags` as the current request's. */
  run<T>(flags: RequestFlags, fn: () => T): T {
    return this.#storage ? this.#storage.run(flags, fn) : fn();
  }

  /** The flags of the request under way; undefined outside one, or when no mount turned `current` on. */
  current(): RequestFlags | undefined {
    return this.#storage?.getStore();
  }
}
