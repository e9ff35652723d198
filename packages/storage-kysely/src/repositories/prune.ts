import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { affected } from './context.js';

/**
 * Retention: the oldest rows before `before`, at most `limit` in all, from the event logs and feedback. Each
 * delete picks its victims through the time index (migration 0005) so a batch touches only the rows it removes.
 */
export async function pruneOld(db: Kysely<Database>, before: string, limit: number): Promise<number> {
  let left = Math.max(0, Math.floor(limit));
  for (const table of ['track_events', 'prompt_events'] as const) {
    if (left === 0) break;
    const result = await db
      .deleteFrom(table)
      .where('seq', 'in', (eb) =>
        eb.selectFrom(table).select('seq').where('timestamp', '<', before).orderBy('timestamp').limit(left),
      )
      .executeTakeFirst();
    left -= affected(result);
  }
  if (left > 0) {
    const result = await db
      .deleteFrom('feedback')
      .where(
        sql<boolean>`(env_id, id) in (${db.selectFrom('feedback').select(['env_id', 'id']).where('created_at', '<', before).orderBy('created_at').limit(left)})`,
      )
      .executeTakeFirst();
    left -= affected(result);
  }
  return Math.max(0, Math.floor(limit)) - left;
}
