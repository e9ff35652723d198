import { postgresStorage } from '@flagmount/storage-postgres';
import { sql } from 'kysely';
import { afterAll, describe, it } from 'vitest';
import { expectDailyExposuresMigrated, insertDailyStatsBefore0006, migrateOnly, newPostgresSchema } from '../support/migrations.js';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('postgres daily exposures migration');
const schemas = new SchemaPool(postgresUrl);
afterAll(() => schemas.dropAll());

describe.skipIf(!available)('migration 0006: a store written before daily exposures migrates forward (issue 37)', () => {
  it('keeps every daily check and track count and time; exposures start at 0 and count from then on', async () => {
    const schema = schemas.next();
    const db = await newPostgresSchema(postgresUrl, schema);
    try {
      const ddl = { text: sql`text collate "C"`, sequenceType: 'bigint', sequence: 'identity', fillfactor: 30 } as const;
      await migrateOnly(db, ddl, ['0001_initial', '0003_schedules', '0005_check_ring'], schema);
      await insertDailyStatsBefore0006(db);
    } finally {
      await db.destroy();
    }

    const storage = postgresStorage({ connectionString: postgresUrl, schema });
    try {
      await storage.migrate();
      await expectDailyExposuresMigrated(storage);
    } finally {
      await storage.close();
    }
  }, 120_000);
});
