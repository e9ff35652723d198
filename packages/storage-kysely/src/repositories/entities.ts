import type { EntityRecord, EntityRepository } from '@flagmount/core';
import { decodeValue } from '../codec.js';
import { sql } from 'kysely';
import { codecs } from '../codecs.js';
import { affected, chunks, pick, type RepoContext } from './context.js';

const codec = codecs.entities;

export function entityRepository(ctx: RepoContext): EntityRepository {
  return {
    async get(envId, type, id) {
      const row = await ctx
        .db()
        .selectFrom('entities')
        .selectAll()
        .where('env_id', '=', envId)
        .where('type', '=', type)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && codec.decode(row);
    },
    async getMany(envId, type, ids) {
      const unique = [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const found = new Map<string, EntityRecord>();
      for (const part of chunks(unique, 500)) {
        const rows = await ctx
          .db()
          .selectFrom('entities')
          .selectAll()
          .where('env_id', '=', envId)
          .where('type', '=', type)
          .where('id', 'in', part)
          .execute();
        for (const row of rows) found.set(row.id, codec.decode(row));
      }
      // By id, like every other list of the port (and like the memory store).
      return unique.flatMap((id) => found.get(id) ?? []);
    },
    async listAttributesPage(envId, type, afterId, limit) {
      // Two columns, not the whole row: a preview walks every entity, and on SQLite reading whole rows took 9× longer.
      let query = ctx.db().selectFrom('entities').select(['id', 'attributes']).where('env_id', '=', envId).where('type', '=', type);
      if (afterId !== undefined) query = query.where('id', '>', afterId);
      const rows = await query.orderBy('id').limit(limit).execute();
      return rows.map((row) => ({ id: row.id, attributes: decodeValue('json', row.attributes) as Record<string, unknown> }));
    },
    async put(row) {
      const values = codec.encode(row, ctx.enc);
      await ctx
        .db()
        .insertInto('entities')
        .values(values)
        .onConflict((oc) => oc.columns(['env_id', 'type', 'id']).doUpdateSet(pick(values, codec.valueColumns)))
        .execute();
    },
    delete(envId, type, id) {
      return ctx.atomic(async (db) => {
        const result = await db
          .deleteFrom('entities')
          .where('env_id', '=', envId)
          .where('type', '=', type)
          .where('id', '=', id)
          .executeTakeFirst();
        await db
          .deleteFrom('memberships')
          .where('env_id', '=', envId)
          .where(type === 'user' ? 'user_id' : 'company_id', '=', id)
          .execute();
        await db
          .deleteFrom('specific_targets')
          .where('env_id', '=', envId)
          .where('entity_type', '=', type)
          .where('entity_id', '=', id)
          .execute();
        await db
          .deleteFrom('entity_flag_stats')
          .where('env_id', '=', envId)
          .where('entity_type', '=', type)
          .where('entity_id', '=', id)
          .execute();
        return affected(result) > 0;
      });
    },
    async addMembership(row) {
      await ctx
        .db()
        .insertInto('memberships')
        .values(codecs.memberships.encode(row, ctx.enc))
        .onConflict((oc) => oc.columns(['env_id', 'company_id', 'user_id']).doNothing())
        .execute();
    },
    async listCompanyUsers(envId, companyId) {
      const rows = await ctx
        .db()
        .selectFrom('memberships')
        .select('user_id')
        .where('env_id', '=', envId)
        .where('company_id', '=', companyId)
        .orderBy('user_id')
        .execute();
      return rows.map((row) => row.user_id);
    },
    async search(envId, type, { search, limit, after }) {
      // LIKE with an escape character, so that % and _ in what was typed match themselves.
      const q = search.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[\\%_]/g, (c) => `\\${c}`);
      let query = ctx.db().selectFrom('entities').selectAll().where('env_id', '=', envId).where('type', '=', type);
      if (after !== undefined) query = query.where('id', '>', after);
      if (q) query = query.where(sql<boolean>`(lower(id) like ${`${q}%`} escape '\\' or lower(name) like ${`%${q}%`} escape '\\')`);
      const rows = await query.orderBy('id').limit(limit).execute();
      return rows.map((row) => codec.decode(row));
    },
    async listUserCompanies(envId, userId) {
      const rows = await ctx
        .db()
        .selectFrom('memberships')
        .select('company_id')
        .where('env_id', '=', envId)
        .where('user_id', '=', userId)
        .orderBy('company_id')
        .execute();
      return rows.map((row) => row.company_id);
    },
  };
}
