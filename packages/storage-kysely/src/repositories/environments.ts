import { NotFoundError, type EnvironmentRecord, type EnvironmentRepository, type Patch } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { affected, type RepoContext } from './context.js';

const codec = codecs.environments;

export function environmentRepository(ctx: RepoContext): EnvironmentRepository {
  const repo: EnvironmentRepository = {
    async get(id) {
      const row = await ctx.db().selectFrom('environments').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async listByApp(appId) {
      const rows = await ctx
        .db()
        .selectFrom('environments')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async listAll() {
      const rows = await ctx
        .db()
        .selectFrom('environments')
        .selectAll()
        .orderBy('app_id')
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async getBySdkKey(key) {
      const row = await ctx
        .db()
        .selectFrom('environments')
        .selectAll()
        .where((eb) => eb.or([eb('publishable_key', '=', key), eb('secret_key', '=', key)]))
        .orderBy('id')
        .executeTakeFirst();
      return row && codec.decode(row);
    },
    async insert(row) {
      await ctx.db().insertInto('environments').values(codec.encode(row, ctx.enc)).execute();
    },
    async update(id, patch: Patch<EnvironmentRecord, 'id' | 'appId' | 'createdAt' | 'flagStateVersion'>) {
      const values = codec.encodePatch(patch, ctx.enc);
      if (Object.keys(values).length === 0) return (await repo.get(id)) !== undefined;
      return affected(await ctx.db().updateTable('environments').set(values).where('id', '=', id).executeTakeFirst()) > 0;
    },
    async bumpVersion(id) {
      // One statement: the row lock it takes makes concurrent bumps queue up instead of reading the same value.
      const row = await ctx
        .db()
        .updateTable('environments')
        .set((eb) => ({ flag_state_version: eb('flag_state_version', '+', 1) }))
        .where('id', '=', id)
        .returning('flag_state_version')
        .executeTakeFirst();
      if (!row) throw new NotFoundError(`environment ${id} not found`);
      return Number(row.flag_state_version);
    },
  };
  return repo;
}
