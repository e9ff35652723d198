import type { AppRecord, AppRepository, Patch } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { affected, type RepoContext } from './context.js';

const codec = codecs.apps;

export function appRepository(ctx: RepoContext): AppRepository {
  const repo: AppRepository = {
    async get(id) {
      const row = await ctx.db().selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async list(filter) {
      let query = ctx.db().selectFrom('apps').selectAll();
      if (filter?.orgId !== undefined) query = query.where('org_id', '=', filter.orgId);
      const rows = await query.orderBy('created_at').orderBy('id').execute();
      return rows.map((row) => codec.decode(row));
    },
    async insert(row) {
      await ctx.db().insertInto('apps').values(codec.encode(row, ctx.enc)).execute();
    },
    async update(id, patch: Patch<AppRecord, 'id' | 'orgId' | 'createdAt'>) {
      const values = codec.encodePatch(patch, ctx.enc);
      if (Object.keys(values).length === 0) return (await repo.get(id)) !== undefined;
      return affected(await ctx.db().updateTable('apps').set(values).where('id', '=', id).executeTakeFirst()) > 0;
    },
  };
  return repo;
}
