import { postgresStorage } from '@flagmount/storage-postgres';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateOnly, newPostgresSchema } from '../support/migrations.js';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('postgres check ring migration');
const schemas = new SchemaPool(postgresUrl);
afterAll(() => schemas.dropAll());

describe.skipIf(!available)('migration 0005: a store written before the check ring migrates forward (issue 35)', () => {
  it('keeps every served count and each environment’s newest 10,000 raw checks, in order', async () => {
    const schema = schemas.next();
    const db = await newPostgresSchema(postgresUrl, schema);
    try {
      const ddl = { text: sql`text collate "C"`, sequenceType: 'bigint', sequence: 'identity' } as const;
      await migrateOnly(db, ddl, ['0001_initial', '0003_schedules'], schema);
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
