import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import type { Storage } from '@flagmount/core';
import { describeError, kyselyStorage, toLogger, type Database, type StorageLogger } from '@flagmount/storage-kysely';
import { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import { SchemaPostgresDialect } from './introspector.js';
import { channelName, quoteIdent, validateSchema } from './names.js';
import { postgresStoreDialect } from './store-dialect.js';

export { mapPostgresError } from './errors.js';
export { postgresStoreDialect, type PostgresDialectSettings } from './store-dialect.js';
export { PgChangeFeed, type PgChangeFeedOptions, type NoticePayload } from './listener.js';
export { channelName } from './names.js';

export interface PostgresStorageOptions {
  connectionString: string;
  /** Schema holding the tables; created by `migrate()`. Default 'public'. */
  schema?: string;
  pool?: {
    /** Default 10. */
    max?: number;
    /** How long a query waits for a connection to be opened before failing as unavailable. Default 10000. */
    connectionTimeoutMillis?: number;
    /**
     * How long a query waits for its answer before failing as unavailable; its connection is then closed, never
     * reused. Without it a replica cut off from the database (packets dropped, sockets still open) hangs its requests
     * for as long as TCP takes to notice, minutes to hours. Default 30000.
     */
    queryTimeoutMillis?: number;
    /**
     * The server ends a session idle this long inside a transaction. A replica cut off mid-transaction holds the
     * schema's write lock until its session ends, and every replica's writes wait for it. Default 10000.
     */
    idleInTransactionTimeoutMillis?: number;
  };
  logger?: Partial<StorageLogger>;
  /** Safety-net poll of environment versions while LISTEN is up (ms). Default 5000. */
  pollIntervalMs?: number;
  /** false: no LISTEN connection, poll only (for transaction-pooling proxies such as PgBouncer). Default true. */
  listen?: boolean;
}

/**
 * A shared store on PostgreSQL: every replica of the host application reads and writes the same schema and hears
 * the others' flag changes through LISTEN/NOTIFY.
 */
export function postgresStorage(options: PostgresStorageOptions): Storage {
  const schema = validateSchema(options.schema ?? 'public');
  const connectionString = withDefaultUser(options.connectionString);
  const logger = toLogger(options.logger);
  const pollIntervalMs = Math.max(10, options.pollIntervalMs ?? 5000);
  const poolMax = options.pool?.max ?? 10;
  const pool = new pg.Pool({
    connectionString,
    max: poolMax,
    connectionTimeoutMillis: options.pool?.connectionTimeoutMillis ?? 10_000,
    application_name: 'flagmount',
    // Idle connections must not keep the host alive if it forgets close().
    allowExitOnIdle: true,
    keepAlive: true,
    query_timeout: options.pool?.queryTimeoutMillis ?? 30_000,
    idle_in_transaction_session_timeout: options.pool?.idleInTransactionTimeoutMillis ?? 10_000,
  });
  // An idle connection's failure (server restart, terminated backend) is reported here; unhandled, it would crash.
  pool.on('error', (error) => logger.warn('postgres idle connection failed', describeError(error)));
  // The pool listens for errors of idle connections only. A connection checked out (between the queries of a
  // transaction, say) that dies — a terminated backend, a restarted server — emits 'error' with no listener, which
  // is an uncaught exception that takes the host process down. Its pending and next queries fail anyway (503), and
  // the pool discards it on release.
  pool.on('connect', (client) => {
    client.on('error', (error) => logger.warn('postgres connection failed', describeError(error)));
    closeOnQueryTimeout(client);
  });
  const db = new Kysely<Database>({
    dialect: new SchemaPostgresDialect(
      {
        pool,
        onCreateConnection: async (connection) => {
          await connection.executeQuery(CompiledQuery.raw(`set search_path to ${quoteIdent(schema)}`));
        },
      },
      schema,
    ),
  });
  const dialect = postgresStoreDialect({
    schema,
    channel: channelName(schema),
    origin: randomUUID(),
    maxAttempts: 5,
    // Ingestion commits side by side on up to half the pool (at most 4: beyond that, on a few cores, Postgres'
    // commits stop getting cheaper); the rest stays free for evaluation reads and management writes.
    appendConcurrency: Math.max(1, Math.min(4, Math.floor(poolMax / 2))),
    feed: {
      connectionString,
      applicationName: `flagmount-listener:${schema}`.slice(0, 63),
      pollIntervalMs,
      disconnectedPollIntervalMs: 1000,
      listen: options.listen ?? true,
      reconnect: { minMs: 100, maxMs: 30_000 },
    },
  });
  return kyselyStorage(db, dialect, { logger });
}

/**
 * Like libpq (psql), a URL without a user name connects as the operating-system user. node-postgres takes PGUSER or
 * USER instead and fails without them ("no PostgreSQL user name specified"), as in many containers; only then is the
 * OS user written into the URL. Anything that is not a URL is left to node-postgres.
 */
export function withDefaultUser(connectionString: string): string {
  if (process.env['PGUSER'] || process.env[process.platform === 'win32' ? 'USERNAME' : 'USER']) return connectionString;
  try {
    const url = new URL(connectionString);
    if (url.username || !/^postgres(ql)?:$/.test(url.protocol)) return connectionString;
    url.username = userInfo().username;
    return url.toString();
  } catch {
    return connectionString;
  }
}

/**
 * pg's `query_timeout` fails the query but leaves it running on its connection, so the next query there would wait
 * behind it: the connection is ended (the pool drops an ended client on release) and the pool opens a fresh one.
 */
function closeOnQueryTimeout(client: pg.PoolClient): void {
  const query = client.query;
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === QUERY_TIMEOUT_MESSAGE) client.end().catch(() => undefined);
      });
    }
    return result;
  } as typeof client.query;
}

/** The error pg gives a query past `query_timeout`. */
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';
