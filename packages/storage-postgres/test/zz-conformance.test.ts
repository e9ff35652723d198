import { describeStorageConformance } from '@flagmount/storage-conformance';
import { postgresStorage } from '@flagmount/storage-postgres';
import type { Storage } from '@flagmount/core';
import pg from 'pg';
const url = 'postgres://postgres@127.0.0.1:5432/test';
let n = 0;
const schemas = new WeakMap<Storage, string>();
const all: string[] = [];
const open = (schema: string) => { const s = postgresStorage({ connectionString: url, schema }); schemas.set(s, schema); return s; };
describeStorageConformance('postgres-dev', {
  create: async () => { const sc = `fm_dev_${process.pid}_${n++}`; all.push(sc); return open(sc); },
  reopen: async (p) => open(schemas.get(p)!),
  second: async (p) => open(schemas.get(p)!),
  cleanup: async () => { const c = new pg.Client({ connectionString: url }); await c.connect(); for (const s of all) await c.query(`drop schema if exists ${s} cascade`); await c.end(); },
});
