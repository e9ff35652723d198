import { StorageUnavailableError, type Storage, type StorageDump, type Transaction } from '@flagmount/core';
import { ChangeNotices } from './notices.js';
import { createRepositories, mapRepositories, WRITE_METHODS } from './repositories/index.js';
import { compare } from './rows.js';
import { createTables, tableNames, type Table, type Tables } from './tables.js';
import { TransactionRunner } from './transaction.js';
import { committedDb } from './view.js';

/** No options yet: the memory store needs none. Kept so that callers can pass `{}` today and options tomorrow. */
export interface MemoryStorageOptions {}

/**
 * A complete store on Maps, for tests, demos and single-process apps that can lose their flags on restart.
 * Transactions are serialised, atomic and isolated; rows handed out are copies.
 */
export function memoryStorage(_options: MemoryStorageOptions = {}): Storage {
  const tables = createTables();
  const notices = new ChangeNotices();
  const runner = new TransactionRunner(tables, notices);
  let closing: Promise<void> | undefined;

  const assertOpen = () => {
    if (closing !== undefined) throw new StorageUnavailableError('memory storage is closed');
  };

  const transaction = async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    assertOpen();
    return runner.run(fn);
  };

  const repositories = mapRepositories(createRepositories(committedDb(tables)), (repository, method, original) => {
    const writes = WRITE_METHODS[repository] as readonly string[];
    if (writes.includes(method)) {
      // A write outside a transaction is a transaction of its own: atomic, and serialised with the others.
      return async (...args) => {
        assertOpen();
        if (runner.insideTransaction()) {
          throw new Error(`memory storage: ${repository}.${method} called on the storage inside transaction(fn); use tx`);
        }
        return runner.run((tx) => (tx[repository] as unknown as Record<string, typeof original>)[method]!(...args));
      };
    }
    return async (...args) => {
      assertOpen();
      return original(...args);
    };
  });

  return {
    kind: 'memory',
    ...repositories,
    async migrate() {
      assertOpen();
    },
    transaction,
    onChange(listener) {
      if (closing !== undefined) return () => {};
      return notices.subscribe(listener);
    },
    async publishChange(envId, version) {
      assertOpen();
      notices.deliver([{ envId, version }]);
    },
    async pruneEvents(before, limit) {
      assertOpen();
      // One process owns a memory store; serialised with transactions like any write.
      return runner.run(async () => pruneOld(tables, before, limit));
    },
    async dump() {
      assertOpen();
      return dumpTables(tables);
    },
    close() {
      closing ??= (async () => {
        await runner.drain();
        notices.clear();
      })();
      return closing;
    },
  };
}

/** Retention: the oldest rows before `before`, at most `limit` in all, from the event logs and feedback. */
function pruneOld(tables: Tables, before: string, limit: number): number {
  let left = Math.max(0, Math.floor(limit));
  const prune = <R>(table: Table<R>, time: (row: R) => string) => {
    if (left === 0) return;
    const old = [...table.rows.entries()].filter(([, row]) => time(row) < before);
    old.sort(([, a], [, b]) => compare(time(a), time(b)));
    for (const [pk] of old.slice(0, left)) table.delete(pk);
    left -= Math.min(left, old.length);
  };
  prune(tables.trackEvents, (r) => r.timestamp);
  prune(tables.promptEvents, (r) => r.timestamp);
  prune(tables.feedback, (r) => r.createdAt);
  return Math.max(0, Math.floor(limit)) - left;
}

function dumpTables(tables: Tables): StorageDump {
  const dump: StorageDump = {};
  for (const name of tableNames) {
    const table = tables[name] as Table<unknown>;
    const entries = [...table.rows.entries()];
    if (table.spec.dumpOrder !== 'insertion') entries.sort(([a], [b]) => compare(a, b));
    dump[name] = entries.map(([, row]) => structuredClone(row));
  }
  return dump;
}
