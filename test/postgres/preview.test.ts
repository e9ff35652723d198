import { postgresStorage } from '@flagmount/storage-postgres';
import { afterAll, describe, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness } from '../http/support/harness.js';
import { checkPreviewAgainstDirectEvaluation } from '../http/safe-releases/preview-check.js';
import { dropSchemas, freshSchemaName, postgresUrl, requirePostgres } from '../support/postgres.js';

const available = await requirePostgres('postgres targeting preview');

describe.skipIf(!available)('POST …/targeting/{envId}/preview on Postgres', () => {
  const schema = freshSchemaName();
  afterAll(() => dropSchemas([schema]), 60_000);
  it('counts equal a direct evaluation of every stored entity', async () => {
    const h = await startHarness(expressFactory, { storage: postgresStorage({ connectionString: postgresUrl, schema }) });
    try {
      await checkPreviewAgainstDirectEvaluation(h);
    } finally {
      await h.close();
    }
  }, 120_000);
});
