import { migrationProvider, MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from '@flagmount/storage-kysely';
import { postgresStorage } from '@flagmount/storage-postgres';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('postgres check ring migration');
const schemas = new SchemaPool(postgresUrl);
afterAll(() => schemas.dropAll());

describe.skipIf(!available)('migration 0005: a store written before the check ring migrates forward (issue 35)', () => {
  it('keeps every served count and each environment’s newest 10,000 raw checks, in order', async () => {
    const schema = schemas.next();
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    try {
      await sql`create schema ${sql.id(schema)}`.execute(db);
      await sql`set search_path to ${sql.id(schema)}`.execute(db);
      const ddl = { text: sql`text collate "C"`, sequenceType: 'bigint', sequence: 'identity' } as const;
      const all = await migrationProvider(ddl).getMigrations();
      const before = new Migrator({
        db,
        provider: { getMigrations: async () => ({ '0001_initial': all['0001_initial']!, '0003_schedules': all['0003_schedules']! }) },
        migrationTableName: MIGRATION_TABLE,
        migrationLockTableName: MIGRATION_LOCK_TABLE,
        migrationTableSchema: schema,
      });
      expect((await before.migrateToLatest()).error).toBeUndefined();
      // 12,000 raw checks in env_a (ids out of order), 3 in env_b, and the counters the API serves.
      await sql`insert into check_events (id, env_id, action, flag_key, timestamp)
        select 'chk_' || (100000 - n), 'env_a', 'check', 'f', '2026-01-01T00:00:00.000Z' from generate_series(1, 12000) n`.execute(db);
      await sql`insert into check_events (id, env_id, action, flag_key, timestamp)
        select 'chk_b' || n, 'env_b', 'check', 'f', '2026-01-01T00:00:00.000Z' from generate_series(1, 3) n`.execute(db);
      await sql`insert into entity_flag_stats (env_id, entity_type, entity_id, flag_key, exposure_count, last_check_at, check_count, track_count)
        values ('env_a', 'user', 'u1', 'f', 4, '2026-01-01T00:00:00.000Z', 12000, 2)`.execute(db);
    } finally {
      await db.destroy();
    }

    const storage = postgresStorage({ connectionString: postgresUrl, schema });
    try {
      await storage.migrate();
      const [stats] = await storage.stats.listEntityFlagStats('env_a', 'user', 'u1');
      expect([stats!.checkCount, stats!.exposureCount, stats!.trackCount, stats!.lastCheckAt]).toEqual([12000, 4, 2, '2026-01-01T00:00:00.000Z']);
      const ring = await storage.events.listChecks('env_a', 20_000);
      expect(ring.map((c) => c.id)).toEqual(Array.from({ length: 10_000 }, (_, i) => `chk_${100000 - 2001 - i}`));
      expect((await storage.events.listChecks('env_b', 10)).map((c) => c.id)).toEqual(['chk_b1', 'chk_b2', 'chk_b3']);
      // The ring goes on from there: the next check replaces the oldest carried one.
      await storage.events.insertChecks([{ ...ring[0]!, id: 'chk_next' }], 10_000);
      const next = await storage.events.listChecks('env_a', 20_000);
      expect([next.length, next[0]!.id, next.at(-1)!.id]).toEqual([10_000, ring[1]!.id, 'chk_next']);
    } finally {
      await storage.close();
    }
  }, 120_000);
});
