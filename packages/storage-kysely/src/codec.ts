import type { Insertable, Updateable } from 'kysely';
import type { Database, DbBool, TableName } from './schema.js';

/** How one database wants a value written; reading accepts either form, so it needs no dialect. */
export interface ValueEncoding {
  bool(value: boolean): DbBool;
  /** How a statement written as text refers to its n-th parameter (1-based): `$1` on Postgres, `?` on SQLite. */
  param(n: number): string;
}

/**
 * - `text`: passed through (nullable columns keep null);
 * - `int` / `num`: numbers; int8 arrives from `pg` as a string;
 * - `bool`: see {@link ValueEncoding};
 * - `json`: a `T | null` field; null is SQL NULL;
 * - `any`: an `unknown` field; undefined is SQL NULL and null is the JSON text `null`, so both survive a round trip.
 */
export type FieldKind = 'text' | 'int' | 'num' | 'bool' | 'json' | 'any';

type ColumnOf<T extends TableName> = keyof Database[T] & string;
export type FieldMap<T extends TableName, R> = { [K in keyof R]-?: readonly [column: ColumnOf<T>, kind: FieldKind] };

export interface TableCodec<T extends TableName, R> {
  readonly table: T;
  readonly fields: FieldMap<T, R>;
  encode(record: R, enc: ValueEncoding): Insertable<Database[T]>;
  decode(row: object): R;
  /** Maps the fields a patch sets; `undefined` values and the `fixed` fields (keys, creation time) are skipped. */
  encodePatch(patch: Partial<R>, enc: ValueEncoding): Updateable<Database[T]>;
  /** Non-key columns: what an upsert overwrites. */
  readonly valueColumns: ColumnOf<T>[];
}

export function encodeValue(kind: FieldKind, value: unknown, enc: ValueEncoding): unknown {
  switch (kind) {
    case 'bool':
      return enc.bool(Boolean(value));
    case 'json':
      return value === null || value === undefined ? null : JSON.stringify(value);
    case 'any':
      return value === undefined ? null : JSON.stringify(value);
    default:
      return value ?? null;
  }
}

export function decodeValue(kind: FieldKind, value: unknown): unknown {
  switch (kind) {
    case 'int':
    case 'num':
      return value === null || value === undefined ? null : Number(value);
    case 'bool':
      return value === true || value === 1 || value === '1' || value === 't';
    case 'json':
      return value === null || value === undefined ? null : JSON.parse(String(value));
    case 'any':
      return value === null || value === undefined ? undefined : JSON.parse(String(value));
    default:
      return value ?? null;
  }
}

export function defineCodec<R>() {
  return <T extends TableName>(
    table: T,
    fields: FieldMap<T, R>,
    options: { fixed: (keyof R)[] },
  ): TableCodec<T, R> => {
    const entries = Object.entries(fields) as [string, readonly [ColumnOf<T>, FieldKind]][];
    const fixed = new Set<string>(options.fixed as string[]);
    return {
      table,
      fields,
      valueColumns: entries.filter(([field]) => !fixed.has(field)).map(([, [column]]) => column),
      encode(record, enc) {
        const row: Record<string, unknown> = {};
        for (const [field, [column, kind]] of entries) {
          row[column] = encodeValue(kind, (record as Record<string, unknown>)[field], enc);
        }
        return row as Insertable<Database[T]>;
      },
      decode(row) {
        const source = row as Record<string, unknown>;
        const record: Record<string, unknown> = {};
        for (const [field, [column, kind]] of entries) {
          const value = decodeValue(kind, source[column]);
          // An absent `unknown` value stays absent, as it would in a memory store.
          if (value !== undefined) record[field] = value;
        }
        return record as R;
      },
      encodePatch(patch, enc) {
        const row: Record<string, unknown> = {};
        for (const [field, [column, kind]] of entries) {
          if (fixed.has(field)) continue;
          const value = (patch as Record<string, unknown>)[field];
          if (value === undefined) continue;
          row[column] = encodeValue(kind, value, enc);
        }
        return row as Updateable<Database[T]>;
      },
    };
  };
}
