import type { CheckEventRecord } from '@flagmount/core';
import { sql, type Kysely } from 'kysely';
import { codecs } from '../codecs.js';
import type { Database } from '../schema.js';
import type { RepoContext } from './context.js';
import { insertRows } from './insert-rows.js';

/** Rows beyond a shrunk ring that one commit deletes beyond those it wrote: no commit holds the table long. */
const SHRINK_SLACK = 1_000;

/** Groups by environment, environments in code-point order: side-by-side commits lock their ring heads alike. */
function byEnvironment(rows: readonly CheckEventRecord[]): [string, CheckEventRecord[]][] {
  const groups = new Map<string, CheckEventRecord[]>();
  for (const row of rows) {
    const list = groups.get(row.envId);
    if (list) list.push(row);
    else groups.set(row.envId, [row]);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Advances the environment's head by `count` and resolves the first `seq` reserved. */
async function reserve(db: Kysely<Database>, envId: string, count: number): Promise<number> {
  const row = await db
    .insertInto('check_ring')
    .values({ env_id: envId, head: count })
    .onConflict((oc) => oc.column('env_id').doUpdateSet({ head: sql`check_ring.head + excluded.head` }))
    .returning('head')
    .executeTakeFirstOrThrow();
  return Number(row.head) - count;
}

/**
 * The recent-checks ring (migration 0005): check `seq` of an environment lives in slot `seq mod keep`, written as
 * an upsert, so the table holds at most `keep` rows per environment and a full ring is overwritten in place
 * (Postgres: a HOT update into its page's free room, no vacuum needed). Without `keep`, slot = seq: all are kept.
 * Slots at or beyond `keep` (the ring was larger) are deleted a bounded batch per commit.
 */
export async function insertRing(ctx: RepoContext, rows: readonly CheckEventRecord[], keep: number | undefined): Promise<void> {
  if (rows.length === 0) return;
  const size = keep === undefined ? undefined : Math.max(0, Math.floor(keep));
  await ctx.atomic(async (db) => {
    for (const [envId, list] of byEnvironment(rows)) {
      const first = await reserve(db, envId, list.length);
      const from = size === undefined ? 0 : Math.max(0, list.length - size);
      if (from < list.length) {
        const values = list.slice(from).map((row, i) => {
          const seq = first + from + i;
          return { ...codecs.checkEvents.encode(row, ctx.enc), slot: size === undefined ? seq : seq % size, seq };
        });
        const columns = Object.keys(values[0]!);
        const updates = columns.filter((c) => c !== 'env_id' && c !== 'slot').map((c) => `"${c}" = excluded."${c}"`);
        await insertRows(db, ctx.enc, 'check_events', columns, values, ` on conflict ("env_id", "slot") do update set ${updates.join(', ')}`);
      }
      if (size !== undefined) await shrink(db, envId, size, list.length + SHRINK_SLACK);
    }
  });
}

async function shrink(db: Kysely<Database>, envId: string, size: number, limit: number): Promise<void> {
  await db
    .deleteFrom('check_events')
    .where('env_id', '=', envId)
    .where('slot', 'in', (eb) =>
      eb.selectFrom('check_events').select('slot').where('env_id', '=', envId).where('slot', '>=', size).limit(limit),
    )
    .execute();
}
