import { migrationProvider, MIGRATION_LOCK_TABLE, MIGRATION_TABLE, type DdlFlavour } from '@flagmount/storage-kysely';
import type { Storage } from '@flagmount/core';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { expect } from 'vitest';

/**
 * A store as an earlier release left it: `db` migrated with only the named migrations of today's set (in `schema`
 * on Postgres), so that a test can write rows in the old shape and migrate the rest forward.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- old schemas have no types
export async function migrateOnly(db: Kysely<any>, ddl: DdlFlavour, names: string[], schema?: string): Promise<void> {
  const all = await migrationProvider(ddl).getMigrations();
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => Object.fromEntries(names.map((name) => [name, all[name]!])) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

/** A Kysely on one connection to a new Postgres schema, its search path set there: where an old store is built. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- old schemas have no types
export async function newPostgresSchema(url: string, schema: string): Promise<Kysely<any>> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- old schemas have no types
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  await sql`create schema ${sql.id(schema)}`.execute(db);
  await sql`set search_path to ${sql.id(schema)}`.execute(db);
  return db;
}

/** Daily flag stats as a store before migration 0006 held them: no exposures column. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- old schemas have no types
export async function insertDailyStatsBefore0006(db: Kysely<any>): Promise<void> {
  await sql`insert into flag_daily_stats (env_id, flag_key, day, check_count, track_count, last_check_at, last_track_at) values
    ('env_a', 'f', '2026-01-01', 12, 3, '2026-01-01T10:00:00.000Z', '2026-01-01T11:00:00.000Z'),
    ('env_a', 'g', '2026-01-02', 5, 0, '2026-01-02T09:00:00.000Z', null)`.execute(db);
}

/** After 0006, those rows keep every count and time, show 0 exposures, and count exposures from then on. */
export async function expectDailyExposuresMigrated(storage: Storage): Promise<void> {
  const row = { envId: 'env_a', exposureCount: 0 };
  expect(await storage.stats.listFlagDailyStats(['env_a'], '2026-01-01')).toEqual([
    { ...row, flagKey: 'f', day: '2026-01-01', checkCount: 12, trackCount: 3, lastCheckAt: '2026-01-01T10:00:00.000Z', lastTrackAt: '2026-01-01T11:00:00.000Z' },
    { ...row, flagKey: 'g', day: '2026-01-02', checkCount: 5, trackCount: 0, lastCheckAt: '2026-01-02T09:00:00.000Z', lastTrackAt: null },
  ]);
  await storage.stats.mergeFlagDailyStats([
    { ...row, flagKey: 'f', day: '2026-01-01', checkCount: 2, exposureCount: 1, trackCount: 0, lastCheckAt: '2026-01-01T12:00:00.000Z', lastTrackAt: null },
  ]);
  const [merged] = await storage.stats.listFlagDailyStats(['env_a'], '2026-01-01');
  expect([merged!.checkCount, merged!.exposureCount, merged!.lastCheckAt]).toEqual([14, 1, '2026-01-01T12:00:00.000Z']);
  const [total] = await storage.stats.listFlagTotals(['env_a']);
  expect([total!.flagKey, total!.checkCount, total!.exposureCount]).toEqual(['f', 14, 1]);
}
