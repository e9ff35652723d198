import type { FeedbackRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { pick, type RepoContext } from './context.js';

const codec = codecs.feedback;

export function feedbackRepository(ctx: RepoContext): FeedbackRepository {
  return {
    async get(envId, id) {
      const row = await ctx
        .db()
        .selectFrom('feedback')
        .selectAll()
        .where('env_id', '=', envId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && codec.decode(row);
    },
    async put(row) {
      const values = codec.encode(row, ctx.enc);
      await ctx
        .db()
        .insertInto('feedback')
        .values(values)
        .onConflict((oc) => oc.columns(['env_id', 'id']).doUpdateSet(pick(values, codec.valueColumns)))
        .execute();
    },
    async listByEnv(envId, limit) {
      const rows = await ctx
        .db()
        .selectFrom('feedback')
        .selectAll()
        .where('env_id', '=', envId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.max(0, limit))
        .execute();
      return rows.map((row) => codec.decode(row));
    },
  };
}
