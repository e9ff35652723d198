import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import { expressFactory } from '../../../http/support/adapters.js';
import { startHarness, type Harness } from '../../../http/support/harness.js';

/**
 * The app a user runs: an Express host with Flagmount at `/flags` on an SQLite file (as examples/express-app does),
 * the dashboard on, bootstrapped with the test keys. The file lives in its own temp dir, removed on close.
 */
export async function startDashboardApp(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'flagmount-dashboard-e2e-'));
  try {
    const h = await startHarness(expressFactory, {
      storage: sqliteStorage({ filename: join(dir, 'flags.db') }),
      options: { dashboard: true },
    });
    return {
      ...h,
      async close() {
        try {
          await h.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
