import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which transaction the current async call chain runs in, for stores to refuse a nested `transaction()` (it would
 * wait for itself) and writes that bypass the `tx` they were given.
 *
 * While any AsyncLocalStorage is enabled, Node runs promise hooks on every promise in the process — the host
 * app's included. Transactions are rare next to evaluations (about 5 % of an evaluation request's CPU went to
 * those hooks), so the storage is enabled only while a transaction runs, and disabled again when the last ends.
 */
export class TransactionScope<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private running = 0;

  /** The scope of the transaction the caller runs inside, if any. */
  current(): T | undefined {
    return this.running > 0 ? this.storage.getStore() : undefined;
  }

  async run<R>(scope: T, fn: () => Promise<R>): Promise<R> {
    this.running++;
    try {
      return await this.storage.run(scope, fn);
    } finally {
      // Only when no transaction is left: disabling exits every context of this storage.
      if (--this.running === 0) this.storage.disable();
    }
  }
}
