import type { Kysely, Migration } from 'kysely';
import type { DdlFlavour } from '../dialect.js';

// Migrations see the database untyped: they describe the schema the types in ../schema.ts are written against.
type Db = Kysely<any>;

/**
 * Safe releases (issue 39): scheduled targeting changes, and prerequisite flags on a flag's targeting. The
 * scheduler's poll reads pending schedules by time; a flag page reads one flag's schedules.
 */
export function schedulesMigration(ddl: DdlFlavour): Migration {
  const text = ddl.text;
  const json = 'text' as const;
  return {
    async up(db: Db) {
      await db.schema
        .createTable('schedules')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('org_id', text, (c) => c.notNull())
        .addColumn('app_id', text, (c) => c.notNull())
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('flag_id', text, (c) => c.notNull())
        .addColumn('flag_key', text, (c) => c.notNull())
        .addColumn('at', text, (c) => c.notNull())
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('targeting', json, (c) => c.notNull())
        .addColumn('created_by', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('applied_at', text)
        .addColumn('flag_state_version', 'bigint')
        .addColumn('reason', text)
        .execute();
      await db.schema.createIndex('schedules_due').on('schedules').columns(['status', 'at', 'id']).execute();
      await db.schema.createIndex('schedules_flag').on('schedules').columns(['flag_id', 'env_id', 'at', 'id']).execute();
      await db.schema.alterTable('flag_targeting').addColumn('prerequisites', json).execute();
    },
  };
}
