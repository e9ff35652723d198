import { describe, expect, it } from 'vitest';
import { midTransactionProblems } from './mid-transaction.js';
import { start, type Backend } from './outage-backends.js';
import { outageScenario } from './outage-scenario.js';

/**
 * The suite every backend runs, declared once so that SQLite and Postgres (storage-outage-sqlite.test.ts,
 * storage-outage-postgres.test.ts) stay held to the same tests: `<name>: the database goes away while serving`.
 */
export function describeDatabaseGoesAway(name: string, make: () => Promise<Backend>, skip = false): void {
  describe.skipIf(skip)(`${name}: the database goes away while serving`, () => {
    it('evaluation keeps answering from the last snapshot, writes answer 503, nothing half-applied, service resumes', { timeout: 90_000 }, async () => {
      const backend = await make();
      const h = await start(backend);
      try {
        const run = await outageScenario(h, backend);
        process.stdout.write(
          `[outage] ${name}: ${run.evaluations} evaluation rounds and ${run.refusedWrites} refused writes during the outage; resumed ${run.resumedAfterMs} ms after the database came back\n`,
        );
        expect(run.problems).toEqual([]);
      } finally {
        await backend.comeBack();
        await h.close();
        await backend.close();
      }
    });

    it('a write failing at any point of its transaction leaves nothing behind (503, store unchanged)', { timeout: 90_000 }, async () => {
      const backend = await make();
      const h = await start(backend);
      try {
        const { problems, failurePoints } = await midTransactionProblems(h, backend.control);
        process.stdout.write(`[outage] ${name}: ${failurePoints} mid-transaction failure points, each rolled back\n`);
        expect(problems).toEqual([]);
        expect(failurePoints).toBeGreaterThan(10);
      } finally {
        await h.close();
        await backend.close();
      }
    });
  });
}
