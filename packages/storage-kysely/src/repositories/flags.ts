import type { FlagRecord, FlagRepository, Patch } from '@flagmount/core';
import type { Selectable } from 'kysely';
import { codecs } from '../codecs.js';
import type { FlagsTable } from '../schema.js';
import { affected, type RepoContext } from './context.js';
import { readPaged } from './paged.js';

const codec = codecs.flags;

export function flagRepository(ctx: RepoContext): FlagRepository {
  const repo: FlagRepository = {
    async get(id) {
      const row = await ctx.db().selectFrom('flags').selectAll().where('id', '=', id).executeTakeFirst();
      return row && codec.decode(row);
    },
    async getByKey(appId, key) {
      const row = await ctx
        .db()
        .selectFrom('flags')
        .selectAll()
        .where('app_id', '=', appId)
        .where('key', '=', key)
        .executeTakeFirst();
      return row && codec.decode(row);
    },
    listByApp(appId) {
      return readPaged<Selectable<FlagsTable>, FlagRecord>(
        (after, limit) => {
          let query = ctx.db().selectFrom('flags').selectAll().where('app_id', '=', appId);
          if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.created_at, after.id)));
          return query.orderBy('created_at').orderBy('id').limit(limit).execute();
        },
        (row) => codec.decode(row),
      );
    },
    async insert(row) {
      await ctx.db().insertInto('flags').values(codec.encode(row, ctx.enc)).execute();
    },
    async update(id, patch: Patch<FlagRecord, 'id' | 'appId' | 'key' | 'createdAt'>) {
      const values = codec.encodePatch(patch, ctx.enc);
      if (Object.keys(values).length === 0) return (await repo.get(id)) !== undefined;
      return affected(await ctx.db().updateTable('flags').set(values).where('id', '=', id).executeTakeFirst()) > 0;
    },
  };
  return repo;
}
