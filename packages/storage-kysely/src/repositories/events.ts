import type { EventRepository } from '@flagmount/core';
import type { TableCodec } from '../codec.js';
import { codecs } from '../codecs.js';
import type { TableName } from '../schema.js';
import { insertRing } from './check-ring.js';
import type { RepoContext } from './context.js';
import { insertRows } from './insert-rows.js';

async function insertEncoded<T extends TableName, R>(ctx: RepoContext, codec: TableCodec<T, R>, rows: readonly R[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => codec.encode(row, ctx.enc) as Record<string, unknown>);
  await ctx.atomic((db) => insertRows(db, ctx.enc, codec.table, Object.keys(values[0]!), values));
}

/** Tracks and prompt events are append-only, `seq` (assigned by the database) their insertion order; checks are a ring. */
export function eventRepository(ctx: RepoContext): EventRepository {
  return {
    insertTracks: (rows) => insertEncoded(ctx, codecs.trackEvents, rows),
    insertChecks: (rows, keep) => insertRing(ctx, rows, keep),
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
  };
}
