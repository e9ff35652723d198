import type { IngestBatch } from '../ingestion/ingest-batch.js';

/** The attributes to store: every member but `id`, as JSON holds them; undefined when JSON cannot (a cycle, a BigInt). */
export function attributesOf(entity: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const key in entity) if (key !== 'id' && Object.prototype.hasOwnProperty.call(entity, key)) out[key] = entity[key];
  try {
    return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Splits rows into batches of at most `size` items, entities and memberships first (stats may follow them). */
export function batches(
  size: number,
  rows: Required<Pick<IngestBatch, 'entities' | 'memberships' | 'entityStats' | 'dailyStats' | 'checks'>>,
): IngestBatch[] {
  const out: IngestBatch[] = [];
  let current: IngestBatch = {};
  let n = 0;
  for (const name of ['entities', 'memberships', 'entityStats', 'dailyStats', 'checks'] as const) {
    const list = rows[name] as unknown[];
    for (let i = 0; i < list.length; ) {
      const take = Math.min(size - n, list.length - i);
      ((current as Record<string, unknown[]>)[name] ??= []).push(...list.slice(i, i + take));
      n += take;
      i += take;
      if (n >= size) {
        out.push(current);
        current = {};
        n = 0;
      }
    }
  }
  if (n > 0) out.push(current);
  return out;
}
