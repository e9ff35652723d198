import { afterAll, describe, expect, it } from 'vitest';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';
import { errorBodyProblems } from './support/error-body.js';
import { postgresBackend, sleep, start, terminateBackends } from './support/outage-backends.js';
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
