import type { TableView } from './view.js';

/** Rows live as plain JSON data, like in a database: what comes out is a fresh copy the caller may mutate. */
export function copy<R>(row: R): R;
export function copy<R>(row: R | undefined): R | undefined;
export function copy<R>(row: R | undefined): R | undefined {
  return row === undefined ? undefined : structuredClone(row);
}

export function copyAll<R>(rows: readonly R[]): R[] {
  return rows.map((row) => structuredClone(row));
}

function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * What a database would keep of `row`: its columns only, as JSON values (a missing or undefined column is null),
 * detached from the caller's objects.
 */
export function normalize<R>(view: TableView<R>, row: R): R {
  const out: Record<string, unknown> = {};
  const source = row as Record<string, unknown>;
  for (const column of Object.keys(view.table.spec.columns)) out[column] = toJson(source[column]);
  return out as R;
}

/**
 * Applies `patch` to the row `pk`: columns other than `frozen` ones, skipping undefined values (the patch leaves
 * them as they are). Resolves false when the row does not exist.
 */
export function patchRow<R>(view: TableView<R>, pk: string, patch: object, frozen: readonly string[]): boolean {
  const current = view.get(pk);
  if (current === undefined) return false;
  const next: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  const columns = view.table.spec.columns as Record<string, true>;
  for (const [column, value] of Object.entries(patch)) {
    if (value === undefined || columns[column] !== true || frozen.includes(column)) continue;
    next[column] = toJson(value);
  }
  view.write(next as R, 'upsert');
  return true;
}

/** Ascending code-unit order (what `COLLATE "C"` does), never locale-aware. */
export function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A comparator over several sort keys, each ascending unless given as `[selector, 'desc']`. */
export function by<R>(
  ...keys: Array<((row: R) => string | number) | [(row: R) => string | number, 'desc']>
): (a: R, b: R) => number {
  return (a, b) => {
    for (const k of keys) {
      const [select, direction] = typeof k === 'function' ? [k, 'asc'] : k;
      const c = compare(select(a), select(b));
      if (c !== 0) return direction === 'desc' ? -c : c;
    }
    return 0;
  };
}
