import { sql, type Kysely, type Migration } from 'kysely';
import type { DdlFlavour } from '../dialect.js';

// Migrations see the database untyped: they describe the schema the types in ../schema.ts are written against.
type Db = Kysely<any>;

/** The ring the first schema's rows move into: the default `retention.recentChecks`. */
const CARRIED = 10_000;

/**
 * Raw check events become a fixed ring of slots per environment (issue 35). Deleting old rows freed no space on
 * Postgres until a vacuum (12–17 MB more per 100k checks over the same pairs); overwriting slot `seq mod keep` in
 * place does: only (env_id, slot) is indexed, so the update is HOT and reuses its page's room (fillfactor). `seq` is
 * the environment's own counter (`check_ring.head`), unindexed on purpose. Check ids are no longer indexed: nothing
 * looks a check up by id, and a unique index on a changing column would grow until vacuum like the deletes did.
 *
 * An existing store keeps each environment's newest CARRIED checks, in order; the served counts live in the
 * aggregate tables and are untouched.
 */
export function checkRingMigration(ddl: DdlFlavour): Migration {
  const text = ddl.text;
  const json = 'text' as const;
  return {
    async up(db: Db) {
      await db.schema.alterTable('check_events').renameTo('check_events_0001').execute();
      let table = db.schema
        .createTable('check_events')
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('slot', 'bigint', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('action', text, (c) => c.notNull())
        .addColumn('flag_key', text, (c) => c.notNull())
        .addColumn('targeting_version', 'bigint')
        .addColumn('user_id', text)
        .addColumn('company_id', text)
        .addColumn('eval_context', json)
        .addColumn('eval_result', json)
        .addColumn('eval_rule_results', json)
        .addColumn('eval_missing_fields', json)
        .addColumn('timestamp', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('check_events_ring_pk', ['env_id', 'slot']);
      if (ddl.fillfactor !== undefined) table = table.modifyEnd(sql`with (fillfactor = ${sql.lit(ddl.fillfactor)})`);
      await table.execute();

      await db.schema
        .createTable('check_ring')
        .addColumn('env_id', text, (c) => c.primaryKey())
        .addColumn('head', 'bigint', (c) => c.notNull())
        .execute();

      const columns = sql.raw(
        'id, action, flag_key, targeting_version, user_id, company_id, eval_context, eval_result, eval_rule_results, eval_missing_fields, timestamp',
      );
      // The newest CARRIED of each environment get seq (and slot) CARRIED - rank: the newest CARRIED - 1, oldest 0.
      await sql`
        insert into check_events (env_id, slot, seq, ${columns})
        select env_id, ${sql.lit(CARRIED)} - rank, ${sql.lit(CARRIED)} - rank, ${columns}
        from (select c.*, row_number() over (partition by env_id order by seq desc) as rank from check_events_0001 c) ranked
        where rank <= ${sql.lit(CARRIED)}`.execute(db);
      await sql`insert into check_ring (env_id, head) select distinct env_id, ${sql.lit(CARRIED)} from check_events`.execute(db);
      await db.schema.dropTable('check_events_0001').execute();
      // Retention (`retention.eventsDays`) deletes the oldest by time, a small batch at a time.
      await db.schema.createIndex('track_events_time').on('track_events').columns(['timestamp']).execute();
      await db.schema.createIndex('prompt_events_time').on('prompt_events').columns(['timestamp']).execute();
      await db.schema.createIndex('feedback_created').on('feedback').columns(['created_at']).execute();
      // The counters are overwritten on every ingestion commit too: without room on their pages each update went to
      // a new page and the tables grew ~20 MB per 100k checks over the same pairs until a vacuum. Pages written from
      // now on keep the room.
      if (ddl.fillfactor !== undefined) {
        for (const name of ['entity_flag_stats', 'flag_daily_stats', 'check_ring']) {
          await sql`alter table ${sql.table(name)} set (fillfactor = ${sql.lit(ddl.fillfactor)})`.execute(db);
        }
      }
    },
  };
}
