import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Storage } from '@flagmount/core';
import { describeStorageConformance, type StorageFactory } from '@flagmount/storage-conformance';
import { sqliteStorage } from '@flagmount/storage-sqlite';

/**
 * A file per store in one temporary directory. `reopen` opens the file again; `second` opens another handle on
 * it, as a second process would (notices between handles travel through the file, hence the short poll).
 */
function fileFactory(): StorageFactory {
  let dir: string | undefined;
  let count = 0;
  const fileOf = new WeakMap<Storage, string>();
  const open = (filename: string) => {
    const storage = sqliteStorage({ filename, pollIntervalMs: 50 });
    fileOf.set(storage, filename);
    return storage;
  };
  return {
    async create() {
      dir ??= await mkdtemp(join(tmpdir(), 'flagmount-sqlite-'));
      return open(join(dir, `store-${count++}.db`));
    },
    reopen: async (previous) => open(fileOf.get(previous)!),
    second: async (first) => open(fileOf.get(first)!),
    async cleanup() {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

describeStorageConformance('sqlite (file)', fileFactory());
describeStorageConformance('sqlite (:memory:)', { create: async () => sqliteStorage({ filename: ':memory:' }) });
