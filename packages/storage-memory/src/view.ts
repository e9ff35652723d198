import { ConflictError } from '@flagmount/core';
import { type Rows, type Table, type TableName, type Tables, tableNames } from './tables.js';

/**
 * What repositories see of one table. Rows handed out are the stored objects: repositories copy them on the way
 * out (`rows.ts`), and store only normalised copies on the way in.
 */
export interface TableView<R> {
  readonly table: Table<R>;
  get(pk: string): R | undefined;
  /** Every row, in insertion order. */
  rows(): R[];
  /** The row holding `value` in the unique index `index`. */
  findUnique(index: string, value: string): R | undefined;
  /** Writes a row; `insert` rejects an existing primary key; both reject a value another row holds in a unique index. */
  write(row: R, mode: 'insert' | 'upsert'): void;
  delete(pk: string): boolean;
}

export type Db = { readonly [N in TableName]: TableView<Rows[N]> };

/** Committed state, read-only: what reads outside a transaction see. */
class CommittedView<R> implements TableView<R> {
  constructor(readonly table: Table<R>) {}

  get(pk: string): R | undefined {
    return this.table.rows.get(pk);
  }

  rows(): R[] {
    return [...this.table.rows.values()];
  }

  findUnique(index: string, value: string): R | undefined {
    const pk = this.table.lookup(index, value);
    return pk === undefined ? undefined : this.table.rows.get(pk);
  }

  write(): void {
    throw new Error(`memory storage: write to ${this.table.spec.name} outside a transaction (internal error)`);
  }

  delete(): boolean {
    throw new Error(`memory storage: delete from ${this.table.spec.name} outside a transaction (internal error)`);
  }
}

const DELETED = Symbol('deleted');

/** A transaction's private changes over committed state (copy-on-write); `commit` applies them in one step. */
class OverlayView<R> implements TableView<R> {
  readonly changes = new Map<string, R | typeof DELETED>();

  constructor(readonly table: Table<R>) {}

  get(pk: string): R | undefined {
    const change = this.changes.get(pk);
    if (change !== undefined) return change === DELETED ? undefined : change;
    return this.table.rows.get(pk);
  }

  rows(): R[] {
    if (this.changes.size === 0) return [...this.table.rows.values()];
    const out: R[] = [];
    for (const [pk, row] of this.table.rows) {
      const change = this.changes.get(pk);
      if (change === undefined) out.push(row);
      else if (change !== DELETED) out.push(change);
    }
    for (const [pk, change] of this.changes) {
      if (change !== DELETED && !this.table.rows.has(pk)) out.push(change);
    }
    return out;
  }

  findUnique(index: string, value: string): R | undefined {
    const values = this.table.spec.unique?.[index];
    if (values === undefined) return undefined;
    for (const change of this.changes.values()) {
      if (change !== DELETED && values(change).includes(value)) return change;
    }
    const pk = this.table.lookup(index, value);
    // A changed row was checked above in its new version; its committed version no longer counts.
    if (pk === undefined || this.changes.has(pk)) return undefined;
    return this.table.rows.get(pk);
  }

  write(row: R, mode: 'insert' | 'upsert'): void {
    const spec = this.table.spec;
    const pk = spec.key(row);
    if (mode === 'insert' && this.get(pk) !== undefined) {
      throw new ConflictError(`${spec.name}: a row with this key already exists`);
    }
    for (const [index, values] of Object.entries(spec.unique ?? {})) {
      for (const value of values(row)) {
        const holder = this.findUnique(index, value);
        if (holder !== undefined && spec.key(holder) !== pk) {
          throw new ConflictError(`${spec.name}: ${index} already used by another row`);
        }
      }
    }
    this.changes.set(pk, row);
  }

  delete(pk: string): boolean {
    if (this.get(pk) === undefined) return false;
    this.changes.set(pk, DELETED);
    return true;
  }

  commit(): void {
    for (const [pk, change] of this.changes) {
      if (change === DELETED) this.table.delete(pk);
      else this.table.set(pk, change);
    }
  }
}

export function committedDb(tables: Tables): Db {
  const db = {} as Record<TableName, TableView<unknown>>;
  for (const name of tableNames) db[name] = new CommittedView(tables[name] as Table<unknown>);
  return db as unknown as Db;
}

/** The working state of one transaction. Nothing reaches `tables` until `commit()`, which cannot fail halfway. */
export class Overlay {
  readonly db: Db;
  private readonly views: OverlayView<unknown>[] = [];

  constructor(tables: Tables) {
    const db = {} as Record<TableName, TableView<unknown>>;
    for (const name of tableNames) {
      const view = new OverlayView(tables[name] as Table<unknown>);
      this.views.push(view);
      db[name] = view;
    }
    this.db = db as unknown as Db;
  }

  commit(): void {
    for (const view of this.views) view.commit();
  }
}
