import { CompiledQuery, type Kysely } from 'kysely';
import type { ValueEncoding } from '../codec.js';
import type { Database } from '../schema.js';
import { chunks, rowsPerStatement } from './context.js';

/** Statement texts by table, columns and row count: ingestion sends a handful of batch sizes over and over. */
const texts = new Map<string, string>();
const MAX_TEXTS = 256;

function insertText(enc: ValueEncoding, table: string, columns: readonly string[], rows: number, suffix: string): string {
  const key = `${enc.param(1)}|${table}|${rows}|${columns.join(',')}|${suffix}`;
  let text = texts.get(key);
  if (text === undefined) {
    const tuples: string[] = [];
    let n = 0;
    for (let r = 0; r < rows; r++) tuples.push(`(${columns.map(() => enc.param(++n)).join(', ')})`);
    text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}${suffix}`;
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/**
 * A multi-row INSERT of encoded rows, written as text (kept per batch size) with the values as one flat list.
 * Event batches are thousands of rows per commit; through Kysely's builder every value became operation nodes to
 * build, freeze and compile, which measured more of the ingestion path's CPU than the database driver's own work.
 * Table and column names are our schema's own plain identifiers, never input.
 */
export async function insertRows(
  db: Kysely<Database>,
  enc: ValueEncoding,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<Record<string, unknown>>,
  /** Appended to the statement: an ON CONFLICT clause (of our own text, never input). */
  suffix = '',
): Promise<void> {
  for (const part of chunks(rows, rowsPerStatement(columns.length))) {
    const params: unknown[] = new Array(part.length * columns.length);
    let i = 0;
    for (const row of part) for (const column of columns) params[i++] = row[column] ?? null;
    await db.executeQuery(CompiledQuery.raw(insertText(enc, table, columns, part.length, suffix), params));
  }
}
