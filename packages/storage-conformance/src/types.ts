import type { Storage } from '@flagmount/core';

/** How the suite gets stores. Each `create()` must give a new, empty database; the suite runs `migrate()` itself. */
export interface StorageFactory {
  create(): Promise<Storage>;
  /**
   * Reopens the database of `previous` (file stores). The suite has closed `previous` before it calls this.
   * Omit for stores that do not persist: the reopen checks are skipped.
   */
  reopen?(previous: Storage): Promise<Storage>;
  /**
   * Opens a second, independent handle on the database of `first`, as another process would (shared stores).
   * Omit for single-process stores: the cross-handle checks are skipped.
   */
  second?(first: Storage): Promise<Storage>;
  /** Runs once after the last check: drop schemas, delete files. */
  cleanup?(): Promise<void>;
}

/** One rule of the port, checked against a fresh, migrated, empty store. Throws when the store breaks the rule. */
export type CheckFunction = (storage: Storage, factory: StorageFactory) => Promise<void>;

export interface ConformanceCheck {
  readonly name: string;
  readonly run: CheckFunction;
  /** The factory capability the check needs; skipped when the factory lacks it. */
  readonly requires?: 'reopen' | 'second';
}

export interface CheckGroup {
  readonly name: string;
  readonly checks: readonly ConformanceCheck[];
}
