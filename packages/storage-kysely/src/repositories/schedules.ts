import type { ScheduleRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { affected, type RepoContext } from './context.js';

const codec = codecs.schedules;

export function scheduleRepository(ctx: RepoContext): ScheduleRepository {
  return {
    async get(id) {
      const row = await ctx.db().selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async insert(row) {
      await ctx.db().insertInto('schedules').values(codec.encode(row, ctx.enc)).execute();
    },
    async listByFlag(flagId, envId) {
      let query = ctx.db().selectFrom('schedules').selectAll().where('flag_id', '=', flagId);
      if (envId !== undefined) query = query.where('env_id', '=', envId);
      const rows = await query.orderBy('at').orderBy('id').execute();
      return rows.map((row) => codec.decode(row));
    },
    async listDue(now, limit) {
      const rows = await ctx
        .db()
        .selectFrom('schedules')
        .selectAll()
        .where('status', '=', 'pending')
        .where('at', '<=', now)
        .orderBy('at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async settle(id, status, patch) {
      // The status condition is the claim: of two processes settling one schedule, the second updates no row.
      const values = codec.encodePatch({ ...patch, status }, ctx.enc);
      const result = await ctx
        .db()
        .updateTable('schedules')
        .set(values)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return affected(result) > 0;
    },
  };
}
