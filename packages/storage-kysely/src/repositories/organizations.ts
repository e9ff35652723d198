import type { OrganizationRecord, OrganizationRepository, Patch } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { affected, type RepoContext } from './context.js';

const codec = codecs.organizations;

export function organizationRepository(ctx: RepoContext): OrganizationRepository {
  const repo: OrganizationRepository = {
    async get(id) {
      const row = await ctx.db().selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async list() {
      const rows = await ctx.db().selectFrom('organizations').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map((row) => codec.decode(row));
    },
    async insert(row) {
      await ctx.db().insertInto('organizations').values(codec.encode(row, ctx.enc)).execute();
    },
    async update(id, patch: Patch<OrganizationRecord, 'id' | 'createdAt'>) {
      const values = codec.encodePatch(patch, ctx.enc);
      if (Object.keys(values).length === 0) return (await repo.get(id)) !== undefined;
      return affected(await ctx.db().updateTable('organizations').set(values).where('id', '=', id).executeTakeFirst()) > 0;
    },
  };
  return repo;
}
