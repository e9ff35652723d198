import { describe, expect, it } from 'vitest';
import { GroupCommitWriter } from '../../src/ingestion/group-commit-writer.js';
import type { IngestBatch } from '../../src/ingestion/ingest-batch.js';
import { silentLogger } from '../../src/logger.js';
import type { Storage, TransactionOptions } from '../../src/storage/port.js';
import type { TrackEventRecord } from '../../src/storage/records.js';

const track = (id: string): TrackEventRecord => ({
  id, envId: 'en', userId: 'u', companyId: null, event: 'e', attributes: {}, timestamp: '2025-01-01T00:00:00.000Z',
});

/** A store whose transactions take `commitMs` and record what ran, with which options, how many at once. */
function recordingStore(appendConcurrency: number | undefined, commitMs = 20) {
  const runs: Array<{ options: TransactionOptions | undefined; tracks: number }> = [];
  let running = 0;
  let maxRunning = 0;
  const committed: string[] = [];
  const storage = {
    ...(appendConcurrency === undefined ? {} : { appendConcurrency }),
    async transaction<T>(fn: (tx: never) => Promise<T>, options?: TransactionOptions): Promise<T> {
      running++;
      maxRunning = Math.max(maxRunning, running);
      const written: string[] = [];
      const noop = async () => {};
      const tx = {
        entities: { getMany: async () => [], put: noop, addMembership: noop },
        events: { insertTracks: async (rows: TrackEventRecord[]) => void written.push(...rows.map((r) => r.id)), insertChecks: noop, insertPromptEvents: noop },
        feedback: { put: noop },
        stats: { mergeEntityFlagStats: noop, mergeFlagDailyStats: noop },
      };
      try {
        const value = await fn(tx as never);
        await new Promise((resolve) => setTimeout(resolve, commitMs));
        committed.push(...written);
        runs.push({ options, tracks: written.length });
        return value;
      } finally {
        running--;
      }
    },
  } as unknown as Storage;
  return { storage, runs, committed, maxRunning: () => maxRunning };
}

const options = { flushIntervalMs: 0, maxBatch: 2000, maxQueue: 50_000 };

describe('GroupCommitWriter', () => {
  it('runs one write at a time on a store without appendConcurrency, batching what arrives meanwhile', async () => {
    const store = recordingStore(undefined);
    const writer = new GroupCommitWriter(store.storage, silentLogger, options);
    const first = writer.submit({ tracks: [track('a')] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const rest = Array.from({ length: 10 }, (_, i) => writer.submit({ tracks: [track(`b${i}`)] }));
    await Promise.all([first, ...rest]);
    expect(store.maxRunning()).toBe(1);
    expect(store.committed).toHaveLength(11);
    // The ten that queued behind the first write went in together.
    expect(store.runs.map((r) => r.tracks)).toEqual([1, 10]);
  });

  it('keeps up to appendConcurrency append-only writes in flight, and every acknowledged item is committed', async () => {
    const store = recordingStore(3);
    const writer = new GroupCommitWriter(store.storage, silentLogger, options);
    const acked: string[] = [];
    const submits: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) {
      const id = `t${i}`;
      submits.push(writer.submit({ tracks: [track(id)] }).then(() => void acked.push(id)));
      if (i % 4 === 3) await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await Promise.all(submits);
    expect(store.maxRunning()).toBe(3);
    expect(new Set(store.committed)).toEqual(new Set(acked));
    expect(acked).toHaveLength(40);
    expect(store.runs.every((r) => r.options?.appendOnly === true)).toBe(true);
  });

  it('marks a batch that upserts entities or stores feedback as an ordinary transaction', async () => {
    const store = recordingStore(4);
    const writer = new GroupCommitWriter(store.storage, silentLogger, options);
    const entity: IngestBatch = { entities: [{ envId: 'en', type: 'user', id: 'u', attributes: { a: 1 }, at: '2025-01-01T00:00:00.000Z' }] };
    await writer.submit(entity);
    await writer.submit({ tracks: [track('x')] });
    expect(store.runs.map((r) => r.options?.appendOnly)).toEqual([false, true]);
  });

  it('close() waits for every write in flight and for what is still queued', async () => {
    const store = recordingStore(2, 30);
    const writer = new GroupCommitWriter(store.storage, silentLogger, options);
    const submits = Array.from({ length: 6 }, (_, i) => writer.submit({ tracks: [track(`c${i}`)] }));
    await writer.close();
    expect(store.committed).toHaveLength(6);
    await Promise.all(submits);
    await expect(writer.submit({ tracks: [track('late')] })).rejects.toMatchObject({ status: 503 });
  });
});
