import type { ManagementKeyRecord, ManagementKeyRepository, Patch } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { affected, type RepoContext } from './context.js';

const codec = codecs.managementKeys;

export function managementKeyRepository(ctx: RepoContext): ManagementKeyRepository {
  const repo: ManagementKeyRepository = {
    async get(id) {
      const row = await ctx.db().selectFrom('management_keys').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async getByHash(hash) {
      const row = await ctx.db().selectFrom('management_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
      return row && codec.decode(row);
    },
    async listByOrg(orgId) {
      const rows = await ctx
        .db()
        .selectFrom('management_keys')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async insert(row) {
      await ctx.db().insertInto('management_keys').values(codec.encode(row, ctx.enc)).execute();
    },
    async update(id, patch: Patch<ManagementKeyRecord, 'id' | 'orgId' | 'hash' | 'createdAt'>) {
      const values = codec.encodePatch(patch, ctx.enc);
      if (Object.keys(values).length === 0) return (await repo.get(id)) !== undefined;
      const result = await ctx.db().updateTable('management_keys').set(values).where('id', '=', id).executeTakeFirst();
      return affected(result) > 0;
    },
  };
  return repo;
}
