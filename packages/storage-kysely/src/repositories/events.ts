import type { EventRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import type { RepoContext } from './context.js';
import { insertRows } from './insert-rows.js';

/** Events are append-only; `seq` (assigned by the database) is their insertion order. */
export function eventRepository(ctx: RepoContext): EventRepository {
  return {
    async insertTracks(rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => codecs.trackEvents.encode(row, ctx.enc) as Record<string, unknown>);
      const columns = Object.keys(values[0]!);
      await ctx.atomic((db) => insertRows(db, ctx.enc, 'track_events', columns, values));
    },
    async insertChecks(rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => codecs.checkEvents.encode(row, ctx.enc) as Record<string, unknown>);
      const columns = Object.keys(values[0]!);
      await ctx.atomic((db) => insertRows(db, ctx.enc, 'check_events', columns, values));
    },
    async insertPromptEvents(rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => codecs.promptEvents.encode(row, ctx.enc) as Record<string, unknown>);
      const columns = Object.keys(values[0]!);
      await ctx.atomic((db) => insertRows(db, ctx.enc, 'prompt_events', columns, values));
    },
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
