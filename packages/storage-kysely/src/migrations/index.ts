import type { Migration, MigrationProvider } from 'kysely';
import type { DdlFlavour } from '../dialect.js';
import { initialMigration } from './0001_initial.js';
import { schedulesMigration } from './0003_schedules.js';
import { checkRingMigration } from './0005_check_ring.js';
import { dailyExposuresMigration } from './0006_daily_exposures.js';

/**
 * The migrations, in order. Names sort in application order (Kysely's Migrator sorts them); a new migration gets
 * the next number and is never edited once released.
 */
export function migrationProvider(ddl: DdlFlavour): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001_initial': initialMigration(ddl),
        '0003_schedules': schedulesMigration(ddl),
        '0005_check_ring': checkRingMigration(ddl),
        '0006_daily_exposures': dailyExposuresMigration(),
      };
    },
  };
}

/** Kysely's default names would collide with a host application's own Kysely migrations in the same database. */
export const MIGRATION_TABLE = 'flagmount_migration';
export const MIGRATION_LOCK_TABLE = 'flagmount_migration_lock';
