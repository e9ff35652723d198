import { createFlagmount } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { describe, expect, it } from 'vitest';
import { createMount } from '../src/adapter/mount.js';

describe('options', () => {
  it('a numeric option out of range fails createFlagmount() naming it, instead of refusing every body or firing timers at once', async () => {
    const bad = [
      { maxBodyBytes: -5 },
      { maxBodyBytes: 1.5 },
      { waitForVersionTimeoutMs: Infinity },
      { waitForVersionTimeoutMs: 2 ** 31 },
      { sse: { maxConnectionsPerEnvironment: 0 } },
      { sse: { heartbeatMs: -1 } },
      { ingestion: { flushIntervalMs: Number.NaN } },
      { ingestion: { maxQueue: 0 } },
      { staleAfterDays: 0 },
    ];
    for (const options of bad) {
      const name = Object.keys(options)[0]!;
      await expect(createFlagmount({ storage: memoryStorage(), ...options }), JSON.stringify(options)).rejects.toThrow(
        new RegExp(`option ${name.replace('.', '\\.')}`),
      );
    }
  });

  it('takes the bounds themselves: 0 turns heartbeats off and makes ingestion write at once', async () => {
    const fm = await createFlagmount({
      storage: memoryStorage(),
      waitForVersionTimeoutMs: 2 ** 31 - 1,
      sse: { heartbeatMs: 0, maxConnectionsPerEnvironment: 1 },
      ingestion: { flushIntervalMs: 0 },
      maxBodyBytes: 1,
    });
    expect(() => createMount(fm, { maxBodyBytes: 0 })).toThrow(/option maxBodyBytes/);
    expect(createMount(fm, { maxBodyBytes: 10 }).maxBodyBytes).toBe(10);
    await fm.close();
  });
});
