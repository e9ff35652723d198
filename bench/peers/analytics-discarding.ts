import type { Storage, Transaction } from '@flagmount/core';

/** The writes of the clients' flushes: users, companies, memberships, their flag counts and the raw check samples. */
const DISCARDED: Record<string, ReadonlySet<string>> = {
  entities: new Set(['put', 'addMembership']),
  stats: new Set(['mergeEntityFlagStats', 'mergeFlagDailyStats']),
  events: new Set(['insertChecks']),
};

const skipping = <T extends object>(target: T, methods: ReadonlySet<string>): T =>
  new Proxy(target, {
    get(t, name, receiver) {
      if (typeof name === 'string' && methods.has(name)) return async () => undefined;
      const value: unknown = Reflect.get(t, name, receiver);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });

/**
 * A store that keeps what the flags need and drops what the in-process clients' flushes write. The client rows of
 * the benches send a million new users each through a memory store, which kept them all in the JavaScript heap
 * (about 70 MB per 100,000 users and instance, 3.5 GB by the end of the eval): every row that allocates then paid
 * more garbage collection round after round (flagd-core went from 962 to 2,185 ns over one run), which no host
 * with its analytics in SQLite or Postgres pays. The flush still runs the whole ingestion path up to the store.
 */
export function discardingAnalytics(storage: Storage): Storage {
  const tx = (t: Transaction): Transaction =>
    new Proxy(t, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        const methods = typeof name === 'string' ? DISCARDED[name] : undefined;
        if (methods && typeof value === 'object' && value !== null) return skipping(value, methods);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return new Proxy(storage, {
    get(target, name, receiver) {
      if (name === 'transaction') {
        return <T>(fn: (t: Transaction) => Promise<T>, options?: Parameters<Storage['transaction']>[1]) =>
          target.transaction((t) => fn(tx(t)), options);
      }
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
