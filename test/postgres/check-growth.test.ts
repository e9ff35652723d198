import { createFlagmount, type Flagmount } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS, FLAGS, ingestChecks } from '../support/checks.js';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('postgres stored checks');
const schemas = new SchemaPool(postgresUrl);
afterAll(() => schemas.dropAll());

/** Bytes of every table of the schema, with its indexes and TOAST (what the disk holds, vacuumed or not). */
async function schemaBytes(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const result = await client.query<{ bytes: string }>(
      `select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
      [schema],
    );
    return Number(result.rows[0]!.bytes);
  } finally {
    await client.end();
  }
}

describe.skipIf(!available)('postgres: stored checks are counted into aggregates (issue 35)', () => {
  it('two replicas: a second 100k checks over the same 10k pairs grow the tables by ≤ 2 MB, each counted once', async () => {
    const schema = schemas.next();
    const open = () => postgresStorage({ connectionString: postgresUrl, schema });
    const replicas: Flagmount[] = [await createFlagmount({ storage: open(), bootstrap: true })];
    replicas.push(await createFlagmount({ storage: open(), bootstrap: true }));
    try {
      const envId = replicas[0]!.bootstrap!.environments[0]!.id;
      // Each replica half of each 100k, at the same time, over the same 10k user × flag pairs, twice.
      await Promise.all(replicas.map((fm) => ingestChecks(fm, envId, CHECKS / 2)));
      const first = await schemaBytes(schema);
      await Promise.all(replicas.map((fm) => ingestChecks(fm, envId, CHECKS / 2)));
      const growth = (await schemaBytes(schema)) - first;
      if (process.env['FLAGMOUNT_REPORT']) process.stdout.write(`postgres growth: ${growth} bytes\n`);
      expect(growth, `grew by ${(growth / 2 ** 20).toFixed(2)} MB`).toBeLessThanOrEqual(2 * 2 ** 20);
      const storage = replicas[1]!.services.storage;
      // 4 × 50k checks over 10k pairs: 20 a pair, for the user and (50 users a company) 1000 for the company.
      const stats = await storage.stats.listEntityFlagStats(envId, 'user', 'user-7');
      expect(stats.map((s) => [s.flagKey, s.checkCount, s.exposureCount])).toEqual(Array.from({ length: FLAGS }, (_, f) => [`flag-${f}`, 20, 0]));
      const company = await storage.stats.listEntityFlagStats(envId, 'company', 'company-7');
      expect(company.map((s) => s.checkCount)).toEqual(Array.from({ length: FLAGS }, () => 400));
      const totals = await storage.stats.listFlagTotals([envId]);
      expect(totals.reduce((sum, t) => sum + t.checkCount, 0)).toBe(2 * CHECKS);
      // The raw ring: exactly its 10k slots, however the replicas' commits interleaved.
      expect((await storage.events.listChecks(envId, 20_000)).length).toBe(10_000);
    } finally {
      for (const fm of replicas) await fm.close();
    }
  }, 300_000);
});
