import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFlagmount } from '@flagmount/core';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS, FLAGS, ingestChecks } from '../support/checks.js';

const dir = mkdtempSync(join(tmpdir(), 'flagmount-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

describe('stored checks are aggregates plus a bounded ring (issue 35)', () => {
  it('SQLite: a second 100k checks over the same 10k user × flag pairs grows file + WAL by ≤ 2 MB, counted once each', async () => {
    const filename = join(dir, 'checks.db');
    const fm = await createFlagmount({ storage: sqliteStorage({ filename }), bootstrap: true });
    try {
      const envId = fm.bootstrap!.environments[0]!.id;
      const size = () => sizeOf(filename) + sizeOf(`${filename}-wal`);
      await ingestChecks(fm, envId, CHECKS);
      const first = size();
      await ingestChecks(fm, envId, CHECKS);
      const growth = size() - first;
      expect(growth, `grew by ${(growth / 2 ** 20).toFixed(2)} MB`).toBeLessThanOrEqual(2 * 2 ** 20);
      const storage = fm.services.storage;
      // 200k checks over 10k pairs: 20 a pair, each committed batch counted once.
      const stats = await storage.stats.listEntityFlagStats(envId, 'user', 'user-2');
      expect(stats.map((s) => [s.flagKey, s.checkCount, s.exposureCount])).toEqual(
        Array.from({ length: FLAGS }, (_, f) => [`flag-${f}`, 20, 20]),
      );
      const [total] = await storage.stats.listFlagTotals([envId]).then((rows) => rows.filter((r) => r.flagKey === 'flag-0'));
      expect(total!.checkCount).toBe((2 * CHECKS) / FLAGS);
      // The ring: at most the default 10k raw checks, the newest.
      const raw = await storage.events.listChecks(envId, 20_000);
      expect(raw.length).toBeLessThanOrEqual(10_000);
      expect(raw.length).toBeGreaterThan(9_000);
    } finally {
      await fm.close();
    }
  }, 240_000);
});
