import { migrationProvider, MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from '@flagmount/storage-kysely';
import { postgresStorage } from '@flagmount/storage-postgres';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('postgres daily exposures migration');
const schemas = new SchemaPool(postgresUrl);
afterAll(() => schemas.dropAll());

describe.skipIf(!available)('migration 0006: a store written before daily exposures migrates forward (issue 37)', () => {
  it('keeps every daily check and track count and time; exposures start at 0 and count from then on', async () => {
    const schema = schemas.next();
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    try {
      await sql`create schema ${sql.id(schema)}`.execute(db);
      await sql`set search_path to ${sql.id(schema)}`.execute(db);
      const ddl = { text: sql`text collate "C"`, sequenceType: 'bigint', sequence: 'identity', fillfactor: 30 } as const;
      const all = await migrationProvider(ddl).getMigrations();
      const before = new Migrator({
        db,
        provider: { getMigrations: async () => ({ '0001_initial': all['0001_initial']!, '0003_schedules': all['0003_schedules']!, '0005_check_ring': all['0005_check_ring']! }) },
        migrationTableName: MIGRATION_TABLE,
        migrationLockTableName: MIGRATION_LOCK_TABLE,
        migrationTableSchema: schema,
      });
      expect((await before.migrateToLatest()).error).toBeUndefined();
      await sql`insert into flag_daily_stats (env_id, flag_key, day, check_count, track_count, last_check_at, last_track_at) values
        ('env_a', 'f', '2026-01-01', 12, 3, '2026-01-01T10:00:00.000Z', '2026-01-01T11:00:00.000Z'),
        ('env_a', 'g', '2026-01-02', 5, 0, '2026-01-02T09:00:00.000Z', null)`.execute(db);
    } finally {
      await db.destroy();
    }

    const storage = postgresStorage({ connectionString: postgresUrl, schema });
    try {
      await storage.migrate();
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
    } finally {
      await storage.close();
    }
  }, 120_000);
});
