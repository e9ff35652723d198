import type { Storage } from '@flagmount/core';
import { describeStorageConformance, type StorageFactory } from '@flagmount/storage-conformance';
import { postgresStorage } from '@flagmount/storage-postgres';
import { describe } from 'vitest';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

// Without a server: outside CI one "SKIPPED …" line and the suite is skipped; with CI=true the file fails.
const available = await requirePostgres('postgres storage conformance');

/** Every store gets a fresh schema of this run; `second` and `reopen` open the same schema again. */
function postgresFactory(): StorageFactory {
  const schemas = new SchemaPool(postgresUrl);
  const schemaOf = new WeakMap<Storage, string>();
  const open = (schema: string) => {
    const storage = postgresStorage({ connectionString: postgresUrl, schema });
    schemaOf.set(storage, schema);
    return storage;
  };
  return {
    create: async () => open(schemas.next()),
    reopen: async (previous) => open(schemaOf.get(previous)!),
    second: async (first) => open(schemaOf.get(first)!),
    cleanup: () => schemas.dropAll(),
  };
}

describe.skipIf(!available)('postgres', () => {
  describeStorageConformance('postgres', postgresFactory());
});
