import type { SpecificTargetRecord, SpecificTargetRepository } from '@flagmount/core';
import type { Selectable } from 'kysely';
import { codecs } from '../codecs.js';
import type { SpecificTargetsTable } from '../schema.js';
import { affected, type RepoContext } from './context.js';
import { readPaged } from './paged.js';

const codec = codecs.specificTargets;

export function specificTargetRepository(ctx: RepoContext): SpecificTargetRepository {
  return {
    listByEnv(envId) {
      return readPaged<Selectable<SpecificTargetsTable>, SpecificTargetRecord>(
        (after, limit) => {
          let query = ctx.db().selectFrom('specific_targets').selectAll().where('env_id', '=', envId);
          if (after) {
            query = query.where((eb) =>
              eb(eb.refTuple('flag_id', 'entity_type', 'entity_id'), '>', eb.tuple(after.flag_id, after.entity_type, after.entity_id)),
            );
          }
          return query.orderBy('flag_id').orderBy('entity_type').orderBy('entity_id').limit(limit).execute();
        },
        (row) => codec.decode(row),
      );
    },
    async listForEntity(envId, entityType, entityId) {
      const rows = await ctx
        .db()
        .selectFrom('specific_targets')
        .selectAll()
        .where('env_id', '=', envId)
        .where('entity_type', '=', entityType)
        .where('entity_id', '=', entityId)
        .orderBy('flag_id')
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async add(row) {
      const result = await ctx
        .db()
        .insertInto('specific_targets')
        .values(codec.encode(row, ctx.enc))
        .onConflict((oc) => oc.columns(['flag_id', 'env_id', 'entity_type', 'entity_id']).doNothing())
        .executeTakeFirst();
      return affected(result) > 0;
    },
    async remove(flagId, envId, entityType, entityId) {
      const result = await ctx
        .db()
        .deleteFrom('specific_targets')
        .where('env_id', '=', envId)
        .where('flag_id', '=', flagId)
        .where('entity_type', '=', entityType)
        .where('entity_id', '=', entityId)
        .executeTakeFirst();
      return affected(result) > 0;
    },
  };
}
