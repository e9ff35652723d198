import { CliError, EXIT, usageError } from './errors.js';
import type { CliIo } from './io.js';
import type { Connection } from './options.js';
import type { Api } from './transport/api.js';
import { httpApi } from './transport/http-api.js';
import { localApi } from './transport/local-api.js';

/**
 * The transport the options name: `--url` (+ `--key`, or FLAGMOUNT_URL / FLAGMOUNT_KEY), `--db`, or `--pg`
 * (+ `--schema`). Exactly one. `create`: an import may create a SQLite file that does not exist yet.
 */
export async function connect(connection: Connection, io: CliIo, create = false): Promise<Api> {
  const url = connection.url ?? (connection.db || connection.pg ? undefined : io.env['FLAGMOUNT_URL']);
  const chosen = [url && '--url', connection.db && '--db', connection.pg && '--pg'].filter(Boolean);
  if (chosen.length === 0) throw usageError('Say where the flags are: --url <mount> --key <management key>, --db <file> or --pg <connection string>');
  if (chosen.length > 1) throw usageError(`Use one of ${chosen.join(', ')}, not several`);
  if (connection.schema && !connection.pg) throw usageError('--schema goes with --pg');
  if (url) {
    const key = connection.key ?? io.env['FLAGMOUNT_KEY'];
    if (!key) throw usageError('--url needs --key <management key> (or FLAGMOUNT_KEY)');
    return httpApi(url, key);
  }
  if (connection.key) throw usageError('--key goes with --url; a local store needs no key');
  return localApi({ db: connection.db, pg: connection.pg, schema: connection.schema }, { cwd: io.cwd, env: io.env, create });
}

export interface AppSummary {
  id: string;
  name: string;
  environments: Array<{ id: string; name: string; isProduction: boolean; order: number }>;
}

/** `--app` by id or name (case-insensitive), else the first app. */
export async function resolveApp(api: Api, wanted: string | undefined): Promise<AppSummary> {
  const { data } = await api.request<{ data: AppSummary[] }>('GET', '/apps');
  if (!data.length) throw new CliError(`${api.target} holds no app yet (flagmount import <file> creates one)`, EXIT.refused);
  if (wanted === undefined) return data[0]!;
  const app = data.find((a) => a.id === wanted) ?? data.find((a) => a.name.toLowerCase() === wanted.toLowerCase());
  if (!app) throw new CliError(`No app "${wanted}" in ${api.target} (apps: ${data.map((a) => a.name).join(', ')})`, EXIT.refused);
  return app;
}

/** Runs `fn` with a connection, closing it whatever happens. */
export async function withApi<T>(connection: Connection, io: CliIo, fn: (api: Api) => Promise<T>, create = false): Promise<T> {
  const api = await connect(connection, io, create);
  try {
    return await fn(api);
  } finally {
    await api.close().catch(() => {});
  }
}
