import type { AuditRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import type { RepoContext } from './context.js';

const codec = codecs.audit;

export function auditRepository(ctx: RepoContext): AuditRepository {
  return {
    async insert(row) {
      await ctx.db().insertInto('audit').values(codec.encode(row, ctx.enc)).execute();
    },
    async list({ orgId, appId, limit, before }) {
      let query = ctx.db().selectFrom('audit').selectAll().where('org_id', '=', orgId);
      if (appId !== undefined) query = query.where('app_id', '=', appId);
      if (before) {
        // Spelled out rather than a row-value comparison, which SQLite and Postgres index differently.
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', before.createdAt),
            eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
          ]),
        );
      }
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.max(0, limit))
        .execute();
      return rows.map((row) => codec.decode(row));
    },
  };
}
