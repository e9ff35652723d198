import { createFlagmount, type Flagmount } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS, FLAGS, ingestChecks } from '../support/checks.js';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('postgres stored checks');
const schemas = new SchemaPool(postgresUrl);
afterAll(() => schemas.dropAll());

describe.skipIf(!available)('postgres: stored checks are counted into aggregates (issue 35)', () => {
  it('two replicas writing at once count every committed check exactly once', async () => {
    const schema = schemas.next();
    const open = () => postgresStorage({ connectionString: postgresUrl, schema });
    const replicas: Flagmount[] = [await createFlagmount({ storage: open(), bootstrap: true })];
    replicas.push(await createFlagmount({ storage: open(), bootstrap: true }));
    try {
      const envId = replicas[0]!.bootstrap!.environments[0]!.id;
      // Each replica half of each 100k, at the same time, over the same 10k user × flag pairs, twice.
      for (let round = 0; round < 2; round++) await Promise.all(replicas.map((fm) => ingestChecks(fm, envId, CHECKS / 2)));
      const storage = replicas[1]!.services.storage;
      // 4 × 50k checks over 10k pairs: 20 a pair, for the user and (50 users a company) 1000 for the company.
      const stats = await storage.stats.listEntityFlagStats(envId, 'user', 'user-7');
      expect(stats.map((s) => [s.flagKey, s.checkCount, s.exposureCount])).toEqual(Array.from({ length: FLAGS }, (_, f) => [`flag-${f}`, 20, 0]));
      const company = await storage.stats.listEntityFlagStats(envId, 'company', 'company-7');
      expect(company.map((s) => s.checkCount)).toEqual(Array.from({ length: FLAGS }, () => 400));
      const totals = await storage.stats.listFlagTotals([envId]);
      expect(totals.reduce((sum, t) => sum + t.checkCount, 0)).toBe(2 * CHECKS);
      // The raw ring is trimmed by every commit; concurrent replicas may leave it above its size for a while.
      expect((await storage.events.listChecks(envId, 10)).length).toBe(10);
    } finally {
      for (const fm of replicas) await fm.close();
    }
  }, 300_000);
});
