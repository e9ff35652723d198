import type { AuditRepository } from '@flagmount/core';
import { codecs } from '../codecs.js';
import type { RepoContext } from './context.js';

const codec = codecs.audit;

export function auditRepository(ctx: RepoContext): AuditRepository {
  return {
    async insert(row) {
      await ctx.db().insertInto('audit').values(codec.encode(row, ctx.enc)).execute();
    },
    async list({ orgId, appId, envId, actor, action, limit, before }) {
      let query = ctx.db().selectFrom('audit').selectAll().where('org_id', '=', orgId);
      if (appId !== undefined) query = query.where('app_id', '=', appId);
      // envId, actor and action are checked on the rows the (org_id[, app_id], created_at, id) index yields newest
      // first, and the LIMIT stops the walk: no sort, no extra index to keep up on every write (see docs/api.md).
      if (envId !== undefined) query = query.where('env_id', '=', envId);
      if (actor !== undefined) query = query.where('actor', '=', actor);
      if (action && 'exact' in action) query = query.where('action', '=', action.exact);
      if (action && 'prefix' in action) {
        // substr rather than LIKE: SQLite's LIKE ignores case and both treat `_` and `%` as wildcards.
        const { prefix } = action;
        query = query.where((eb) => eb(eb.fn<string>('substr', ['action', eb.val(1), eb.val(prefix.length)]), '=', prefix));
      }
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
