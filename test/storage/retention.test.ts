import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFlagmount, type Storage } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { KEPT, NOW, remaining, seedOldEvents, until } from '../support/old-events.js';

const dir = mkdtempSync(join(tmpdir(), 'flagmount-retention-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stores: [string, () => Storage][] = [
  ['memory', () => memoryStorage()],
  ['sqlite', () => sqliteStorage({ filename: join(dir, `${Math.random().toString(36).slice(2)}.db`) })],
];

describe.each(stores)('retention.eventsDays on %s (issue 35)', (_name, open) => {
  it('prunes tracks, prompt events and feedback older than the window in the background, keeps newer ones', async () => {
    const storage = open();
    await storage.migrate();
    const old = await seedOldEvents(storage, 'env_r', 1_200);
    const fm = await createFlagmount({ storage, now: () => NOW, retention: { eventsDays: 30 } });
    try {
      await until(() => fm.stats().retention.eventsPruned === old);
      expect(await remaining(storage, 'env_r')).toEqual(KEPT);
    } finally {
      await fm.close();
    }
  });

  it('is off by default', async () => {
    const storage = open();
    await storage.migrate();
    await seedOldEvents(storage, 'env_r', 3);
    const fm = await createFlagmount({ storage, now: () => NOW });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await storage.events.listTracks('env_r', 100)).length).toBe(4);
    expect(fm.stats().retention.eventsPruned).toBe(0);
    await fm.close();
  });

  it('close() stops a round midway and no round follows', async () => {
    const inner = open();
    await inner.migrate();
    const old = await seedOldEvents(inner, 'env_r', 5_000);
    let calls = 0;
    const storage: Storage = { ...inner, pruneEvents: (before, limit) => (calls++, inner.pruneEvents(before, limit)) };
    const fm = await createFlagmount({ storage, now: () => NOW, retention: { eventsDays: 30 } });
    await until(() => calls >= 2);
    await fm.close();
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toBe(after);
    expect(fm.stats().retention.eventsPruned).toBeLessThan(old);
  });
});

describe('retention.eventsDays is validated like the other numeric options', () => {
  for (const eventsDays of [0, -1, 1.5, 40_000]) {
    it(`${eventsDays} is refused with a TypeError naming the option`, async () => {
      await expect(createFlagmount({ storage: memoryStorage(), retention: { eventsDays } })).rejects.toThrow(
        expect.objectContaining({ name: 'TypeError', message: expect.stringContaining('retention.eventsDays') }),
      );
    });
  }
});
