import type { Storage } from '@flagmount/core';
import { pgUrl } from '../peers/pg.js';
import type { StoreSpec } from './host-config.js';

export async function openStore(spec: StoreSpec): Promise<Storage> {
  if (spec.kind === 'sqlite') {
    const { sqliteStorage } = await import('@flagmount/storage-sqlite');
    return sqliteStorage({ filename: spec.filename });
  }
  const { postgresStorage } = await import('@flagmount/storage-postgres');
  return postgresStorage({ connectionString: pgUrl(), schema: spec.schema });
}
