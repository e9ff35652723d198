import { REPOSITORY_NAMES, repositoriesOf, type Storage, type Transaction } from '@flagmount/core';

/**
 * A store wrapped so a test can make it misbehave on purpose: go away (every call rejects), fail half-way through a
 * transaction, get slow, or — for the self-checks of the reliability suite — break its own guarantees (acknowledge
 * before the commit, write outside any transaction).
 */
export interface StorageControl {
  /** Every repository call and transaction rejects with `error` while it is set (the database is gone). */
  fail(error: Error | undefined): void;
  /** Inside the next transactions, the repository call after `calls` calls rejects with `error` (mid-transaction). */
  failInTransactionAfter(calls: number | undefined, error?: Error): void;
  /** Each transaction waits this long before it starts (a slow disk, a busy database). */
  delayTransactions(ms: number): void;
  /** Broken on purpose: resolve a transaction `ms` before it commits (acknowledge before commit). */
  acknowledgeEarly(ms: number | undefined): void;
  /** Broken on purpose: run transactions against the store itself, so a failure half-way leaves half the writes. */
  nonAtomic(on: boolean): void;
  /** How many transactions started. */
  readonly transactions: number;
  /** How many repository calls were made (inside transactions or not), failed ones included. */
  readonly calls: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function controllableStorage(inner: Storage): { storage: Storage; control: StorageControl } {
  let failure: Error | undefined;
  let failAfter: { calls: number; error: Error } | undefined;
  let delayMs = 0;
  let earlyMs: number | undefined;
  let nonAtomic = false;
  let transactions = 0;
  let calls = 0;
  // A database fails asynchronously (I/O), never within the same tick: so does this one. A caller that retried at
  // once would then spin through the event loop, visible in `calls`, instead of freezing the test process.
  const later = (error: Error) => new Promise<never>((_, reject) => setImmediate(() => reject(error)));

  const guard =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>, self: unknown, counter?: { n: number }) =>
    (...args: A): Promise<R> => {
      calls++;
      if (failure) return later(failure);
      if (counter && failAfter && ++counter.n > failAfter.calls) return later(failAfter.error);
      return fn.apply(self, args);
    };
  // The target is an empty object: stores may freeze their repositories, and a proxy of a frozen object must
  // return its very properties.
  const wrapRepository = (repository: object, counter?: { n: number }) =>
    new Proxy({}, {
      get(_, property) {
        const value: unknown = Reflect.get(repository, property);
        return typeof value === 'function' ? guard(value as (...args: unknown[]) => Promise<unknown>, repository, counter) : value;
      },
    });
  const wrapTransaction = (tx: Transaction, counter: { n: number }): Transaction => {
    const repos = repositoriesOf(tx);
    const wrapped = Object.fromEntries(REPOSITORY_NAMES.map((name) => [name, wrapRepository(repos[name], counter)]));
    return { ...(wrapped as unknown as Transaction), publishChange: (envId, version) => tx.publishChange(envId, version) };
  };

  async function transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    transactions++;
    if (failure) return later(failure);
    if (delayMs) await sleep(delayMs);
    if (failure) throw failure;
    const counter = { n: 0 };
    if (nonAtomic) {
      const published: Array<[string, number]> = [];
      const root = { ...repositoriesOf(inner), publishChange: (envId: string, version: number) => void published.push([envId, version]) };
      const result = await fn(wrapTransaction(root as Transaction, counter));
      for (const [envId, version] of published) await inner.publishChange(envId, version);
      return result;
    }
    if (earlyMs !== undefined) {
      const wait = earlyMs;
      return new Promise<T>((resolve, reject) => {
        inner
          .transaction(async (tx) => {
            const result = await fn(wrapTransaction(tx, counter));
            resolve(result); // acknowledged here …
            await sleep(wait); // … committed only after this
            return result;
          })
          .catch(reject);
      });
    }
    return inner.transaction((tx) => fn(wrapTransaction(tx, counter)));
  }

  const storage: Storage = {
    kind: inner.kind,
    ...(Object.fromEntries(REPOSITORY_NAMES.map((name) => [name, wrapRepository(inner[name])])) as unknown as Pick<Storage, (typeof REPOSITORY_NAMES)[number]>),
    migrate: guard(() => inner.migrate(), inner),
    transaction,
    onChange: (listener) => inner.onChange(listener),
    publishChange: guard((envId: string, version: number) => inner.publishChange(envId, version), inner),
    pruneEvents: guard((before: string, limit: number) => inner.pruneEvents(before, limit), inner),
    // Left working during an outage, so a test can look at what is stored.
    dump: () => inner.dump(),
    close: () => inner.close(),
  };
  const control: StorageControl = {
    fail: (error) => void (failure = error),
    failInTransactionAfter: (calls, error = new Error('injected failure')) => void (failAfter = calls === undefined ? undefined : { calls, error }),
    delayTransactions: (ms) => void (delayMs = ms),
    acknowledgeEarly: (ms) => void (earlyMs = ms),
    nonAtomic: (on) => void (nonAtomic = on),
    get transactions() {
      return transactions;
    },
    get calls() {
      return calls;
    },
  };
  return { storage, control };
}
