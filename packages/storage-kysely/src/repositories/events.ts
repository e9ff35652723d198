import type { EventRepository } from '@flagmount/core';
import type { TableCodec } from '../codec.js';
import { codecs } from '../codecs.js';
import type { TableName } from '../schema.js';
import { affected, type RepoContext } from './context.js';
import { insertRows } from './insert-rows.js';

async function insertEncoded<T extends TableName, R>(ctx: RepoContext, codec: TableCodec<T, R>, rows: readonly R[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => codec.encode(row, ctx.enc) as Record<string, unknown>);
  await ctx.atomic((db) => insertRows(db, ctx.enc, codec.table, Object.keys(values[0]!), values));
}

/** Events are append-only; `seq` (assigned by the database) is their insertion order. */
export function eventRepository(ctx: RepoContext): EventRepository {
  return {
    insertTracks: (rows) => insertEncoded(ctx, codecs.trackEvents, rows),
    insertChecks: (rows) => insertEncoded(ctx, codecs.checkEvents, rows),
    insertPromptEvents: (rows) => insertEncoded(ctx, codecs.promptEvents, rows),
    async listTracks(envId, limit) {
      const rows = await ctx
        .db()
        .selectFrom('track_events')
        .selectAll()
        .where('env_id', '=', envId)
        .orderBy('seq')
        .limit(Math.max(0, limit))
        .execute();
      return rows.map((row) => codecs.trackEvents.decode(row));
    },
    async listChecks(envId, limit) {
      const rows = await ctx
        .db()
        .selectFrom('check_events')
        .selectAll()
        .where('env_id', '=', envId)
        .orderBy('seq')
        .limit(Math.max(0, limit))
        .execute();
      return rows.map((row) => codecs.checkEvents.decode(row));
    },
    async listPromptEvents(envId, limit) {
      const rows = await ctx
        .db()
        .selectFrom('prompt_events')
        .selectAll()
        .where('env_id', '=', envId)
        .orderBy('seq')
        .limit(Math.max(0, limit))
        .execute();
      return rows.map((row) => codecs.promptEvents.decode(row));
    },
    async trimChecks(envId, keep, limit) {
      if (limit <= 0) return 0;
      // Postgres runs ingestion commits side by side: rows another commit is deleting are skipped, not waited for
      // (then skipped anyway), so concurrent trims delete different rows and the ring keeps up. SQLite has one writer.
      const concurrent = ctx.enc.param(1) === '$1';
      // By `seq` through the (env_id, seq) index: the rows past the newest `keep`, newest of them first.
      const result = await ctx
        .db()
        .deleteFrom('check_events')
        .where('seq', 'in', (eb) => {
          const victims = eb
            .selectFrom('check_events')
            .select('seq')
            .where('env_id', '=', envId)
            .orderBy('seq', 'desc')
            .limit(limit)
            .offset(Math.max(0, keep));
          return concurrent ? victims.forUpdate().skipLocked() : victims;
        })
        .executeTakeFirst();
      return affected(result);
    },
  };
}
