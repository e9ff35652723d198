import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationProvider, MIGRATION_LOCK_TABLE, MIGRATION_TABLE, silentLogger } from '@flagmount/storage-kysely';
import { Sqlite3Dialect, sqliteStorage } from '@flagmount/storage-sqlite';
import { Kysely, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/connection.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flagmount-sqlite-0006-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('migration 0006: a store written before daily exposures migrates forward (issue 37)', () => {
  it('keeps every daily check and track count and time; exposures start at 0 and count from then on', async () => {
    const filename = join(dir, 'before-0006.db');
    const db = new Kysely<any>({ dialect: new Sqlite3Dialect({ database: () => openDatabase(filename, silentLogger) }) });
    try {
      const all = await migrationProvider({ text: 'text', sequenceType: 'integer', sequence: 'rowid' }).getMigrations();
      const before = new Migrator({
        db,
        provider: { getMigrations: async () => ({ '0001_initial': all['0001_initial']!, '0003_schedules': all['0003_schedules']!, '0005_check_ring': all['0005_check_ring']! }) },
        migrationTableName: MIGRATION_TABLE,
        migrationLockTableName: MIGRATION_LOCK_TABLE,
      });
      expect((await before.migrateToLatest()).error).toBeUndefined();
      await sql`insert into flag_daily_stats (env_id, flag_key, day, check_count, track_count, last_check_at, last_track_at) values
        ('env_a', 'f', '2026-01-01', 12, 3, '2026-01-01T10:00:00.000Z', '2026-01-01T11:00:00.000Z'),
        ('env_a', 'g', '2026-01-02', 5, 0, '2026-01-02T09:00:00.000Z', null)`.execute(db);
    } finally {
      await db.destroy();
    }

    const storage = sqliteStorage({ filename });
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
  });
});
