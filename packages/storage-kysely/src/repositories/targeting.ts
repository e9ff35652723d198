import type { TargetingRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { pick, type RepoContext } from './context.js';

const codec = codecs.targeting;

export function targetingRepository(ctx: RepoContext): TargetingRepository {
  return {
    async get(flagId, envId) {
      const row = await ctx
        .db()
        .selectFrom('flag_targeting')
        .selectAll()
        .where('flag_id', '=', flagId)
        .where('env_id', '=', envId)
        .executeTakeFirst();
      return row && codec.decode(row);
    },
    async listByEnv(envId) {
      const rows = await ctx
        .db()
        .selectFrom('flag_targeting')
        .selectAll()
        .where('env_id', '=', envId)
        .orderBy('flag_id')
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async put(row) {
      const values = codec.encode(row, ctx.enc);
      await ctx
        .db()
        .insertInto('flag_targeting')
        .values(values)
        .onConflict((oc) => oc.columns(['flag_id', 'env_id']).doUpdateSet(pick(values, codec.valueColumns)))
        .execute();
    },
  };
}
