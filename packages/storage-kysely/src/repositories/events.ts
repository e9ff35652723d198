import type { EventRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { chunks, rowsPerStatement, type RepoContext } from './context.js';

const trackColumns = Object.keys(codecs.trackEvents.fields).length;
const checkColumns = Object.keys(codecs.checkEvents.fields).length;
const promptColumns = Object.keys(codecs.promptEvents.fields).length;

/** Events are append-only; `seq` (assigned by the database) is their insertion order. */
export function eventRepository(ctx: RepoContext): EventRepository {
  return {
    async insertTracks(rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => codecs.trackEvents.encode(row, ctx.enc));
      await ctx.atomic(async (db) => {
        for (const part of chunks(values, rowsPerStatement(trackColumns))) {
          await db.insertInto('track_events').values(part).execute();
        }
      });
    },
    async insertChecks(rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => codecs.checkEvents.encode(row, ctx.enc));
      await ctx.atomic(async (db) => {
        for (const part of chunks(values, rowsPerStatement(checkColumns))) {
          await db.insertInto('check_events').values(part).execute();
        }
      });
    },
    async insertPromptEvents(rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => codecs.promptEvents.encode(row, ctx.enc));
      await ctx.atomic(async (db) => {
        for (const part of chunks(values, rowsPerStatement(promptColumns))) {
          await db.insertInto('prompt_events').values(part).execute();
        }
      });
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
