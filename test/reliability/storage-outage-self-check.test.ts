import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { midTransactionProblems } from './support/mid-transaction.js';
import { sqliteBackend, start } from './support/outage-backends.js';
import { outageScenario } from './support/outage-scenario.js';

/**
 * Storage outage self-check: deliberately broken builds (a non-atomic store, a cache that drops its snapshot or
 * retries in a loop, a store that never comes back) must fail the outage checks of storage-outage-*.test.ts.
 */

const tmp = mkdtempSync(join(tmpdir(), 'flagmount-outage-'));
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('storage outage self-check: deliberately broken builds are caught', () => {
  it('a store whose transactions are not atomic is caught half-applied', { timeout: 60_000 }, async () => {
    const backend = sqliteBackend(tmp);
    backend.control.nonAtomic(true);
    const h = await start(backend);
    try {
      const { problems } = await midTransactionProblems(h, backend.control);
      expect(problems.join('\n')).toMatch(/half-applied/);
    } finally {
      await h.close();
    }
  });

  it('a cache that drops its snapshot when the store fails is caught (evaluation stops answering)', { timeout: 60_000 }, async () => {
    const backend = sqliteBackend(tmp);
    const h = await start(backend);
    const snapshots = h.instance.services.snapshots;
    const original = snapshots.get.bind(snapshots);
    let gone = false;
    snapshots.get = (envId) => (gone ? undefined : original(envId));
    const goAway = backend.goAway;
    backend.goAway = async () => {
      gone = true;
      await goAway();
    };
    const comeBack = backend.comeBack;
    backend.comeBack = async () => {
      gone = false;
      await comeBack();
    };
    try {
      const run = await outageScenario(h, backend, 300, 3000);
      expect(run.problems.join('\n')).toMatch(/during the outage: .*(answered 403|is false|lost steady)/);
    } finally {
      await h.close();
    }
  });

  it('a cache that retries a failed reload at once (a loop eating the CPU) is caught', { timeout: 60_000 }, async () => {
    const backend = sqliteBackend(tmp);
    const h = await start(backend);
    const snapshots = h.instance.services.snapshots as unknown as { failed: Set<string>; reload(envId: string): Promise<void>; scheduleRetry(): void };
    snapshots.scheduleRetry = function (this: typeof snapshots) {
      for (const envId of [...this.failed]) {
        this.failed.delete(envId);
        void this.reload(envId);
      }
    };
    try {
      const run = await outageScenario(h, backend, 300, 3000);
      expect(run.problems.join('\n')).toMatch(/store calls in 1.2 s of idle outage/);
    } finally {
      backend.control.fail(undefined);
      await h.close();
    }
  });

  it('a store that never comes back is caught (no resumption)', { timeout: 60_000 }, async () => {
    const backend = sqliteBackend(tmp);
    const h = await start(backend);
    backend.comeBack = async () => {};
    try {
      const run = await outageScenario(h, backend, 300, 1500);
      expect(run.problems.join('\n')).toMatch(/did not resume/);
    } finally {
      backend.control.fail(undefined);
      await h.close();
    }
  });
});
