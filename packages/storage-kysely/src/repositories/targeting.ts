import type { FlagTargetingRecord, TargetingRepository } from '@flagmount/core';
import type { Selectable } from 'kysely';
import { codecs } from '../codecs.js';
import type { FlagTargetingTable } from '../schema.js';
import { pick, type RepoContext } from './context.js';
import { readPaged } from './paged.js';

const codec = codecs.targeting;

/** `prerequisites` is optional: NULL (none) reads back as an absent field. */
function decode(row: object): FlagTargetingRecord {
  const record = codec.decode(row);
  if (record.prerequisites === null) delete record.prerequisites;
  return record;
}

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
      return row && decode(row);
    },
    listByEnv(envId) {
      return readPaged<Selectable<FlagTargetingTable>, FlagTargetingRecord>(
        (after, limit) => {
          let query = ctx.db().selectFrom('flag_targeting').selectAll().where('env_id', '=', envId);
          if (after) query = query.where('flag_id', '>', after.flag_id);
          return query.orderBy('flag_id').limit(limit).execute();
        },
        (row) => decode(row),
      );
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
