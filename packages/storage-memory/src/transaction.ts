import { TransactionScope, type ChangeNotice, type Transaction } from '@flagmount/core';
import { ChangeNotices } from './notices.js';
import { Mutex } from './mutex.js';
import { createRepositories, mapRepositories } from './repositories/index.js';
import type { Tables } from './tables.js';
import { Overlay } from './view.js';

interface TxState {
  readonly runner: TransactionRunner;
  active: boolean;
}

/**
 * Runs transactions one at a time (FIFO). Each works on a private overlay of the committed tables: reads see its
 * own writes, nobody else sees them, and the overlay reaches the tables in one synchronous step after `fn`
 * resolves — or is dropped if it rejects. Notices queued in the transaction go to listeners after the commit.
 */
export class TransactionRunner {
  private readonly mutex = new Mutex();
  private readonly context = new TransactionScope<TxState>();

  constructor(
    private readonly tables: Tables,
    private readonly notices: ChangeNotices,
  ) {}

  /** True while the caller runs inside the `fn` of an unfinished transaction of this store. */
  insideTransaction(): boolean {
    const state = this.context.current();
    return state !== undefined && state.active && state.runner === this;
  }

  async run<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.insideTransaction()) {
      // Waiting for the mutex here would wait for ourselves forever.
      throw new Error('memory storage: transaction() called inside a transaction; use the `tx` argument instead');
    }
    const release = await this.mutex.lock();
    const queued: ChangeNotice[] = [];
    let result: T;
    try {
      const overlay = new Overlay(this.tables);
      const state: TxState = { runner: this, active: true };
      const tx = createTransaction(overlay, queued, state);
      try {
        result = await this.context.run(state, () => fn(tx));
      } finally {
        state.active = false;
      }
      overlay.commit();
    } finally {
      release();
    }
    this.notices.deliver(queued);
    return result;
  }

  /** Resolves once every transaction queued so far has finished. */
  async drain(): Promise<void> {
    if (this.insideTransaction()) return;
    const release = await this.mutex.lock();
    release();
  }
}

function createTransaction(overlay: Overlay, queued: ChangeNotice[], state: TxState): Transaction {
  const finished = () => new Error('memory storage: this transaction has already finished');
  const repositories = mapRepositories(createRepositories(overlay.db), (_repository, _method, original) => {
    return async (...args) => {
      if (!state.active) throw finished();
      return original(...args);
    };
  });
  return {
    ...repositories,
    publishChange(envId, version) {
      if (!state.active) throw finished();
      queued.push({ envId, version });
    },
  };
}
