import { existsSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { bodyText, createFlagmount, createOperatorHandler, silentLogger, type CoreHandler, type Flagmount, type Storage } from '@flagmount/core';
import { CliError, EXIT } from '../errors.js';
import { apiError, type Api } from './api.js';

export interface LocalStore {
  db?: string | undefined;
  pg?: string | undefined;
  schema?: string | undefined;
}

/** `cli:<os user>`: who ran a command on the store itself, as the audit log shows it. */
export function localOperator(env: Readonly<Record<string, string | undefined>>) {
  let user = env['USER'] ?? env['USERNAME'];
  try {
    user ??= userInfo().username;
  } catch {
    user ??= 'unknown';
  }
  return { id: `cli:${user}`, name: `${user} (flagmount CLI)` };
}

async function openStorage(store: LocalStore, cwd: string, create: boolean): Promise<{ storage: Storage; target: string }> {
  if (store.db !== undefined) {
    const filename = store.db.startsWith('/') ? store.db : `${cwd}/${store.db}`;
    // A mistyped path must not become a new, empty store; only an import may create one.
    if (!existsSync(filename) && !create) throw new CliError(`No SQLite store at ${store.db}`, EXIT.unreachable);
    if (existsSync(filename) && !statSync(filename).isFile()) throw new CliError(`${store.db} is not a file`, EXIT.unreachable);
    const { sqliteStorage } = await import('@flagmount/storage-sqlite');
    // The default poll interval, not 0: with 0 the store would keep its change notices in this process, and a host
    // running on the same file would not hear of a flag the CLI just turned off.
    return { storage: sqliteStorage({ filename }), target: store.db };
  }
  const { postgresStorage, withDefaultUser } = await import('@flagmount/storage-postgres');
  const target = `${redact(store.pg!)}${store.schema ? ` (schema ${store.schema})` : ''}`;
  if (!create) await requireFlagmountSchema(withDefaultUser(store.pg!), store.schema ?? 'public', target);
  return { storage: postgresStorage({ connectionString: store.pg!, ...(store.schema ? { schema: store.schema } : {}) }), target };
}

/**
 * Opening a store migrates it: a mistyped schema would become a new, empty store. Only an import may create one,
 * so other commands first ask whether the schema holds Flagmount's tables.
 */
async function requireFlagmountSchema(connectionString: string, schema: string, target: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    const found = await client.query("SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'apps'", [schema]);
    if (!found.rowCount) throw new CliError(`No Flagmount store in ${target}`, EXIT.unreachable);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`Cannot open ${target}: ${error instanceof Error ? error.message : String(error)}`, EXIT.unreachable);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A connection string without its password, for messages. */
function redact(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.href;
  } catch {
    return 'the Postgres store';
  }
}

/**
 * The store opened in this process with the core, the management routes called through the core's own handler:
 * validation, audit entries and version bumps are exactly those of a request over HTTP.
 */
export async function localApi(store: LocalStore, options: { cwd: string; env: Readonly<Record<string, string | undefined>>; create: boolean }): Promise<Api> {
  const { storage, target } = await openStorage(store, options.cwd, options.create);
  let instance: Flagmount;
  let handler: CoreHandler;
  try {
    instance = await createFlagmount({ storage, bootstrap: false, logger: silentLogger });
    handler = await createOperatorHandler(instance, localOperator(options.env));
  } catch (error) {
    await storage.close().catch(() => {});
    throw new CliError(`Cannot open ${target}: ${error instanceof Error ? error.message : String(error)}`, EXIT.unreachable);
  }
  return {
    target,
    async request<T>(method: string, path: string, opts: { query?: Record<string, string>; body?: unknown } = {}): Promise<T> {
      const response = await handler({
        method,
        path,
        query: Object.entries(opts.query ?? {}),
        headers: opts.body !== undefined ? { 'content-type': 'application/json' } : {},
        body: opts.body !== undefined ? { kind: 'parsed', value: opts.body, contentType: 'application/json' } : { kind: 'none' },
      });
      const text = bodyText(response) ?? '';
      if (response.status >= 300) throw apiError(response.status, text, target);
      return JSON.parse(text) as T;
    },
    close: () => instance.close(),
  };
}
