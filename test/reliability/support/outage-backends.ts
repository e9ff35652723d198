import { join } from 'node:path';
import { StorageUnavailableError, type Storage } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import pg from 'pg';
import { expressFactory } from '../../http/support/adapters.js';
import { startHarness, type Harness } from '../../http/support/harness.js';
import { postgresUrl, type SchemaPool } from '../../support/postgres.js';
import { controllableStorage, type StorageControl } from '../../support/storage-wrappers.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

/**
 * Stores whose database can be taken away and given back, and the app served over one.
 *
 * SQLite: the file's store is wrapped so that every call fails with StorageUnavailableError (an open SQLite file
 * cannot be taken away from a process that holds it: moving or chmod-ing it changes nothing for the open handle,
 * and root ignores permissions). Postgres: the store talks through a TCP proxy; the outage terminates the pool's
 * backends (pg_terminate_backend) and refuses new connections until the proxy listens again.
 */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export interface Backend {
  name: string;
  storage: Storage;
  /** The same store, wrapped for mid-transaction failures and the broken-build self-checks. */
  control: StorageControl;
  goAway(): Promise<void>;
  comeBack(): Promise<void>;
  close(): Promise<void>;
  /** Postgres: client ports of the store's connections, as `pg_stat_activity.client_port` shows them. */
  ports?(): number[];
}

let counter = 0;
/** A store in a new file under `dir`. */
export function sqliteBackend(dir: string): Backend {
  const { storage, control } = controllableStorage(sqliteStorage({ filename: join(dir, `outage-${counter++}.db`), pollIntervalMs: 0 }));
  return {
    name: 'sqlite',
    storage,
    control,
    goAway: async () => control.fail(new StorageUnavailableError('SQLite is unavailable: disk I/O error')),
    comeBack: async () => control.fail(undefined),
    close: async () => {},
  };
}

export async function terminateBackends(ports: number[]): Promise<number> {
  if (!ports.length) return 0;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>(
      'select pg_terminate_backend(pid) as ok from pg_stat_activity where client_port = any($1::int[]) and pid <> pg_backend_pid()',
      [ports],
    );
    return rows.length;
  } finally {
    await client.end();
  }
}

/** A store in a new schema of `schemas`, reached through a TCP proxy that the outage cuts. */
export async function postgresBackend(schemas: SchemaPool): Promise<Backend> {
  const url = new URL(postgresUrl);
  const proxy: TcpProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.port = String(proxy.port);
  const { storage, control } = controllableStorage(
    postgresStorage({
      connectionString: url.toString(),
      schema: schemas.next(),
      pool: { max: 4, connectionTimeoutMillis: 2000 },
      pollIntervalMs: 500,
      logger: quiet,
    }),
  );
  return {
    name: 'postgres',
    storage,
    control,
    async goAway() {
      await terminateBackends(proxy.upstreamPorts());
      await proxy.cut();
    },
    comeBack: () => proxy.restore(),
    close: () => proxy.close(),
    ports: () => proxy.upstreamPorts(),
  };
}

/** The app, hosted by Express, over the backend's store. */
export async function start(backend: Backend): Promise<Harness> {
  return startHarness(expressFactory, {
    storage: backend.storage,
    options: { logger: quiet, waitForVersionTimeoutMs: 300 },
  });
}
