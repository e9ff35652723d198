import type { MemberRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import { pick, type RepoContext } from './context.js';

const codec = codecs.members;

export function memberRepository(ctx: RepoContext): MemberRepository {
  return {
    async get(id) {
      const row = await ctx.db().selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async listByOrg(orgId) {
      const rows = await ctx
        .db()
        .selectFrom('members')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map((row) => codec.decode(row));
    },
    async upsert(row) {
      const values = codec.encode(row, ctx.enc);
      await ctx
        .db()
        .insertInto('members')
        .values(values)
        .onConflict((oc) => oc.column('id').doUpdateSet(pick(values, codec.valueColumns)))
        .execute();
    },
  };
}

