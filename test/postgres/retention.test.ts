import { createFlagmount, type Flagmount } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { KEPT, NOW, remaining, seedOldEvents, until } from '../support/old-events.js';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('postgres retention');
const schemas = new SchemaPool(postgresUrl);
afterAll(() => schemas.dropAll());

describe.skipIf(!available)('postgres: retention.eventsDays across replicas (issue 35)', () => {
  it('two replicas prune every old row exactly once between them, without errors, and keep newer rows', async () => {
    const schema = schemas.next();
    const open = () => postgresStorage({ connectionString: postgresUrl, schema });
    const seed = open();
    await seed.migrate();
    const old = await seedOldEvents(seed, 'env_r', 4_000);
    const problems: unknown[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string, f?: unknown) => problems.push([m, f]), error: (m: string, f?: unknown) => problems.push([m, f]) };
    const replicas: Flagmount[] = await Promise.all(
      [open(), open()].map((storage) => createFlagmount({ storage, logger, now: () => NOW, retention: { eventsDays: 30 } })),
    );
    try {
      const pruned = () => replicas.reduce((sum, fm) => sum + fm.stats().retention.eventsPruned, 0);
      await until(() => pruned() >= old, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(pruned(), 'deleted counts add up to the old rows: no batch was deleted twice').toBe(old);
      expect(await remaining(seed, 'env_r')).toEqual(KEPT);
      expect(problems).toEqual([]);
    } finally {
      for (const fm of replicas) await fm.close();
      await seed.close();
    }
  }, 120_000);

  it('while another process holds the prune lock, pruneEvents deletes nothing', async () => {
    const schema = schemas.next();
    const storage = postgresStorage({ connectionString: postgresUrl, schema });
    await storage.migrate();
    await seedOldEvents(storage, 'env_r', 10);
    const before = new Date(NOW.getTime() - 30 * 86_400_000).toISOString();
    const other = new pg.Client({ connectionString: postgresUrl });
    await other.connect();
    try {
      await other.query('begin');
      // The lock the store takes: class JOB_LOCK_CLASS, key hashtext('<schema>:prune').
      await other.query('select pg_try_advisory_xact_lock($1::int, hashtext($2))', [0x464d_0003, `${schema}:prune`]);
      expect(await storage.pruneEvents(before, 500)).toBe(0);
      await other.query('commit');
      expect(await storage.pruneEvents(before, 500)).toBe(12);
    } finally {
      await other.end();
      await storage.close();
    }
  });
});
