import { createFlagmount, type Flagmount } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS, FLAGS, ingestChecks } from '../support/checks.js';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('postgres stored checks');
const schemas = new SchemaPool(postgresUrl);
afterAll(() => schemas.dropAll());

/** Every table of the schema with its indexes and TOAST, after a VACUUM (what autovacuum leaves in steady state). */
async function schemaBytes(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ tablename: string }>('select tablename from pg_tables where schemaname = $1', [schema]);
    for (const { tablename } of tables) await client.query(`vacuum "${schema}"."${tablename}"`);
    const { rows } = await client.query<{ bytes: string }>(
      `select coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename))), 0) as bytes from pg_tables where schemaname = $1`,
      [schema],
    );
    return Number(rows[0]!.bytes);
  } finally {
    await client.end();
  }
}

describe.skipIf(!available)('postgres: stored checks are aggregates plus a bounded ring (issue 35)', () => {
  it('two replicas writing at once count every committed check once; a second 100k grows the tables by ≤ 2 MB', async () => {
    const schema = schemas.next();
    const open = () => postgresStorage({ connectionString: postgresUrl, schema });
    const replicas: Flagmount[] = [await createFlagmount({ storage: open(), bootstrap: true })];
    replicas.push(await createFlagmount({ storage: open(), bootstrap: true }));
    try {
      const envId = replicas[0]!.bootstrap!.environments[0]!.id;
      // Each replica half of each 100k, at the same time, over the same pairs.
      const round = () => Promise.all(replicas.map((fm) => ingestChecks(fm, envId, CHECKS / 2)));
      await round();
      const first = await schemaBytes(schema);
      await round();
      const growth = (await schemaBytes(schema)) - first;
      expect(growth, `grew by ${(growth / 2 ** 20).toFixed(2)} MB`).toBeLessThanOrEqual(2 * 2 ** 20);
      const storage = replicas[1]!.services.storage;
      // 4 × 50k checks over 10k pairs: 20 a pair.
      const stats = await storage.stats.listEntityFlagStats(envId, 'user', 'user-7');
      expect(stats.map((s) => [s.flagKey, s.checkCount, s.exposureCount])).toEqual(Array.from({ length: FLAGS }, (_, f) => [`flag-${f}`, 20, 0]));
      const totals = await storage.stats.listFlagTotals([envId]);
      expect(totals.reduce((sum, t) => sum + t.checkCount, 0)).toBe(2 * CHECKS);
      const raw = await storage.events.listChecks(envId, 20_000);
      expect(raw.length).toBeLessThanOrEqual(10_000);
    } finally {
      for (const fm of replicas) await fm.close();
    }
  }, 300_000);
});
