import { describeStorageConformance } from '@flagmount/storage-conformance';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import type { Storage } from '@flagmount/core';
let n = 0;
const files = new WeakMap<Storage, string>();
const open = (filename: string) => { const s = sqliteStorage({ filename }); files.set(s, filename); return s; };
describeStorageConformance('sqlite-dev', {
  create: async () => open(`/tmp/fmstore-dev-k7q/db/c-${process.pid}-${Date.now()}-${n++}.db`),
  reopen: async (p) => open(files.get(p)!),
  second: async (p) => open(files.get(p)!),
});
describeStorageConformance('sqlite-memory-dev', { create: async () => sqliteStorage({ filename: ':memory:' }) });
