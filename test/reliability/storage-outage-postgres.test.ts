import { StorageUnavailableError } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { errorBodyProblems } from './support/error-body.js';
import { postgresBackend, quiet, sleep, start, terminateBackends } from './support/outage-backends.js';
import { describeDatabaseGoesAway } from './support/outage-suite.js';

/**
 * Storage outage (issue 10), Postgres: the same outage suite as SQLite (support/outage-suite.ts), the database
 * taken away by terminating the pool's backends and cutting the TCP proxy in front of it; then backends terminated
 * under write traffic, where every answer must be whole or absent.
 */

const pgAvailable = await requirePostgres('storage outage');
const schemas = new SchemaPool(postgresUrl);
afterAll(async () => {
  await schemas.dropAll();
});

describeDatabaseGoesAway('postgres', () => postgresBackend(schemas), !pgAvailable);

describe.skipIf(!pgAvailable)('postgres: backends terminated under write traffic', () => {
  it('every answer is 200 or 503; a 200 is stored whole, a 503 is absent or whole; versions match', { timeout: 90_000 }, async () => {
    const backend = await postgresBackend(schemas);
    const h = await start(backend);
    try {
      const envIds = Object.values(h.envs).map((e) => e.id);
      const initial = Object.fromEntries(await Promise.all(envIds.map(async (id) => [id, (await h.storage.environments.get(id))!.flagStateVersion] as const)));
      const answers: Array<{ key: string; status: number; text: string }> = [];
      let stop = false;
      let terminated = 0;
      const killer = (async () => {
        while (!stop) {
          await sleep(150 + Math.random() * 200);
          terminated += await terminateBackends(backend.ports!());
        }
      })();
      const workers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          const key = `kill-${w}-${i}`;
          const res = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key, name: key } });
          answers.push({ key, status: res.status, text: res.text });
        }
      });
      await sleep(4000);
      stop = true;
      await Promise.all([killer, ...workers]);

      const problems: string[] = [];
      for (const a of answers) {
        if (a.status !== 200 && a.status !== 503) problems.push(`${a.key}: ${a.status} ${a.text.slice(0, 200)}`);
        if (a.status === 503) problems.push(...errorBodyProblems(503, 'application/json', a.text));
      }
      let dump: Record<string, unknown[]> | undefined;
      for (let i = 0; i < 50 && !dump; i++) dump = await h.storage.dump().catch(() => sleep(100).then(() => undefined));
      const flags = new Set((dump!['flags'] as Array<{ key: string }>).map((f) => f.key));
      const audited = new Set(
        (dump!['audit'] as Array<{ action: string; after: { key?: string } | null }>).filter((a) => a.action === 'flag.created').map((a) => a.after?.key),
      );
      for (const a of answers) {
        const stored = flags.has(a.key);
        if (a.status === 200 && !stored) problems.push(`${a.key} was acknowledged and is missing`);
        if (stored !== audited.has(a.key)) problems.push(`${a.key}: flag row ${stored ? 'without' : 'missing but'} audit entry (half-applied)`);
      }
      const created = answers.filter((a) => flags.has(a.key)).length;
      for (const id of envIds) {
        const env = (dump!['environments'] as Array<{ id: string; flagStateVersion: number }>).find((e) => e.id === id)!;
        if (env.flagStateVersion !== initial[id]! + created) problems.push(`env ${id}: version ${env.flagStateVersion}, expected ${initial[id]! + created} (one bump per stored flag)`);
      }
      const ok200 = answers.filter((a) => a.status === 200).length;
      process.stdout.write(`[outage] postgres: ${terminated} backends terminated under traffic; ${answers.length} writes, ${ok200} acknowledged, ${answers.length - ok200} refused; all consistent: ${problems.length === 0}\n`);
      expect(problems).toEqual([]);
      expect(terminated).toBeGreaterThan(0);
      expect(ok200).toBeGreaterThan(0);
    } finally {
      await h.close();
      await backend.close();
    }
  });
});

describe.skipIf(!pgAvailable)('postgres: a replica cut off with its sockets open (a partition)', () => {
  it("fails its queries after queryTimeoutMillis, and its stalled transaction stops holding the other replicas' writes", { timeout: 60_000 }, async () => {
    const url = new URL(postgresUrl);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    const schema = schemas.next();
    const pool = { max: 2, connectionTimeoutMillis: 2000, queryTimeoutMillis: 1500, idleInTransactionTimeoutMillis: 1000 };
    const cutOff = postgresStorage({ connectionString: url.toString(), schema, pool, listen: false, logger: quiet });
    const other = postgresStorage({ connectionString: postgresUrl, schema, logger: quiet });
    try {
      await cutOff.migrate();
      await other.migrate();
      // The first statement of a transaction takes the schema's write lock; then the link goes quiet.
      let inside!: () => void;
      const entered = new Promise<void>((resolve) => (inside = resolve));
      const stalled = cutOff.transaction(async (tx) => {
        await tx.environments.listAll();
        inside();
        await sleep(200);
        return tx.environments.listAll();
      });
      const outcome = stalled.then(
        () => 'committed',
        (error: unknown) => error,
      );
      await entered;
      proxy.stall();
      const started = Date.now();
      await other.transaction(async (tx) => tx.environments.listAll());
      const waited = Date.now() - started;
      expect(await outcome).toBeInstanceOf(StorageUnavailableError);
      // Released by the server ending the stalled session (1 s), not by the partition healing.
      expect(waited).toBeLessThan(8000);
      const read = Date.now();
      await expect(cutOff.environments.listAll()).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(Date.now() - read).toBeLessThan(6000);
      await proxy.restore();
      let back = false;
      for (let i = 0; i < 50 && !back; i++) back = await cutOff.environments.listAll().then(() => true, () => sleep(100).then(() => false));
      expect(back).toBe(true);
      process.stdout.write(`[outage] postgres partition: the other replica's write waited ${waited} ms for the stalled transaction\n`);
    } finally {
      await proxy.restore();
      await Promise.all([cutOff.close(), other.close()]);
      await proxy.close();
    }
  });
});
