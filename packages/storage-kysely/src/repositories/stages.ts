import type { Patch, StageRecord, StageRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { affected, type RepoContext } from './context.js';

const codec = codecs.stages;

export function stageRepository(ctx: RepoContext): StageRepository {
  const repo: StageRepository = {
    async get(id) {
      const row = await ctx.db().selectFrom('stages').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async listByApp(appId) {
      const rows = await ctx
        .db()
        .selectFrom('stages')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async insert(row) {
      await ctx.db().insertInto('stages').values(codec.encode(row, ctx.enc)).execute();
    },
    async update(id, patch: Patch<StageRecord, 'id' | 'appId'>) {
      const values = codec.encodePatch(patch, ctx.enc);
      if (Object.keys(values).length === 0) return (await repo.get(id)) !== undefined;
      return affected(await ctx.db().updateTable('stages').set(values).where('id', '=', id).executeTakeFirst()) > 0;
    },
    async delete(id) {
      return affected(await ctx.db().deleteFrom('stages').where('id', '=', id).executeTakeFirst()) > 0;
    },
  };
  return repo;
}
