import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@flagmount/storage-kysely';
import { Sqlite3Dialect, sqliteStorage } from '@flagmount/storage-sqlite';
import { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectDailyExposuresMigrated, insertDailyStatsBefore0006, migrateOnly } from '../../../test/support/migrations.js';
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
      await migrateOnly(db, { text: 'text', sequenceType: 'integer', sequence: 'rowid' }, ['0001_initial', '0003_schedules', '0005_check_ring']);
      await insertDailyStatsBefore0006(db);
    } finally {
      await db.destroy();
    }

    const storage = sqliteStorage({ filename });
    try {
      await storage.migrate();
      await expectDailyExposuresMigrated(storage);
    } finally {
      await storage.close();
    }
  });
});
