import type { Patch, SegmentRecord, SegmentRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { affected, type RepoContext } from './context.js';

const codec = codecs.segments;

export function segmentRepository(ctx: RepoContext): SegmentRepository {
  const repo: SegmentRepository = {
    async get(id) {
      const row = await ctx.db().selectFrom('segments').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async listByApp(appId) {
      const rows = await ctx
        .db()
        .selectFrom('segments')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async insert(row) {
      await ctx.db().insertInto('segments').values(codec.encode(row, ctx.enc)).execute();
    },
    async update(id, patch: Patch<SegmentRecord, 'id' | 'appId' | 'createdAt'>) {
      const values = codec.encodePatch(patch, ctx.enc);
      if (Object.keys(values).length === 0) return (await repo.get(id)) !== undefined;
      return affected(await ctx.db().updateTable('segments').set(values).where('id', '=', id).executeTakeFirst()) > 0;
    },
    async delete(id) {
      return affected(await ctx.db().deleteFrom('segments').where('id', '=', id).executeTakeFirst()) > 0;
    },
  };
  return repo;
}
