import type { Kysely, Migration } from 'kysely';

// Migrations see the database untyped: they describe the schema the types in ../schema.ts are written against.
type Db = Kysely<any>;

/**
 * Exposures per day (issue 37): the flag page's activity chart shows checks whose evalResult was true beside all
 * checks. Days counted before this migration have no record of their exposures, so they keep their counts and
 * show 0 exposures rather than a guess. A constant default is a catalogue-only change on Postgres (no table
 * rewrite, whatever the table's size); SQLite appends the column in place.
 */
export function dailyExposuresMigration(): Migration {
  return {
    async up(db: Db) {
      await db.schema
        .alterTable('flag_daily_stats')
        .addColumn('exposure_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
