/**
 * What the three example apps share: configuration from the environment, the console logger, creating the
 * instance, the startup banner, the host's own demo routes and graceful shutdown. Each app keeps only what is
 * framework-specific (its routes and how it mounts Flagmount). Not a package: the apps import it relatively.
 */
import type { Server } from 'node:http';
import { createFlagmount, type Flagmount, type RequestFlags, type Storage } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';
import { sqliteStorage } from '@flagmount/storage-sqlite';

export const PREFIX = '/flags';
/** A 16 KiB `contextJson` in the URL exceeds Node's default 16 KiB header limit (README, "URL length"). */
export const MAX_HEADER_SIZE = 65536;

export interface ExampleConfig {
  port: number;
  /** SQLite file, unless `pgUrl` is set. */
  dbFile: string;
  pgUrl: string | undefined;
  /** Postgres schema (`FLAGMOUNT_PG_SCHEMA`); the store's default, `public`, when unset. */
  pgSchema: string | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ExampleConfig {
  const port = Number(env['PORT'] ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env['PORT']}`);
  return {
    port,
    dbFile: env['FLAGMOUNT_DB'] || './flags.db',
    pgUrl: env['FLAGMOUNT_PG_URL'] || undefined,
    pgSchema: env['FLAGMOUNT_PG_SCHEMA'] || undefined,
  };
}

type Fields = Record<string, unknown>;

/** The example's own console logger: examples may print, Flagmount's packages only log through it. */
export const log = {
  debug: (_message: string, _fields?: Fields) => {},
  info: (message: string, fields?: Fields) => console.log(line(message, fields)),
  warn: (message: string, fields?: Fields) => console.warn(line(message, fields)),
  error: (message: string, fields?: Fields) => console.error(line(message, fields)),
};

function line(message: string, fields: Fields | undefined): string {
  if (!fields || !Object.keys(fields).length) return message;
  const shown = Object.entries(fields).map(([k, v]) => `${k}=${v instanceof Error ? v.message : JSON.stringify(v)}`);
  return `${message} ${shown.join(' ')}`;
}

export function createStorage(config: ExampleConfig): Storage {
  return config.pgUrl
    ? postgresStorage({ connectionString: config.pgUrl, ...(config.pgSchema ? { schema: config.pgSchema } : {}), logger: log })
    : sqliteStorage({ filename: config.dbFile, logger: log });
}

/**
 * The instance every example mounts. Bootstrap runs on an empty store (and is a no-op afterwards): it creates the
 * app, its environments and SDK keys, and the management key, `FLAGMOUNT_MANAGEMENT_KEY` when set.
 */
export function createExampleFlagmount(config: ExampleConfig): Promise<Flagmount> {
  return createFlagmount({ storage: createStorage(config), logger: log, bootstrap: true, dashboard: true });
}

/** The host's demo routes, framework-free: each app wires them to its own router. */
export const demo = {
  /**
   * No network hop: the check runs against the compiled snapshot in this process, for the request's own user
   * (`req.flags`), or for `userId` when one is given.
   */
  checkout(flags: RequestFlags, userId: string | undefined): { userId: string; checkout: 'new' | 'classic' } {
    const id = userId || String(flags.context.user?.id ?? 'anonymous');
    const enabled = userId ? flags.client.isEnabled('new-checkout', { user: { id } }) : flags.isEnabled('new-checkout');
    return { userId: id, checkout: enabled ? 'new' : 'classic' };
  },
};

/** Prints where everything is and, on the first start, the keys bootstrap created (shown only this once). */
export function printStartup(instance: Flagmount, framework: string, config: ExampleConfig, port: number): void {
  const origin = `http://localhost:${port}`;
  const api = origin + PREFIX;
  log.info(`Flagmount example on ${framework}: ${origin}/`);
  log.info(`  storage     ${config.pgUrl ? `postgres (FLAGMOUNT_PG_URL), schema ${config.pgSchema ?? 'public'}` : `sqlite ${config.dbFile}`}`);
  log.info(`  host routes ${origin}/  ${origin}/api/checkout?userId=alice  ${origin}/beta`);
  log.info(`  sign in     curl -c jar -H 'content-type: application/json' -d '{"name":"alice","role":"admin"}' ${origin}/login`);
  log.info(`  Flagmount   ${api}  (dashboard ${api}/ui)`);
  const boot = instance.bootstrap;
  if (boot?.created) {
    log.info('First start: created an app with these keys (the management key is shown only now):');
    const fromEnv = process.env['FLAGMOUNT_MANAGEMENT_KEY'];
    log.info(`  management key  ${fromEnv ? '(FLAGMOUNT_MANAGEMENT_KEY)' : (boot.managementKey ?? '(not shown)')}`);
    for (const env of boot.environments) {
      log.info(`  ${env.name.padEnd(12)}    publishable ${env.publishableKey}  secret ${env.secretKey}`);
    }
  } else {
    log.info('Store already set up: use the management key printed on its first start.');
  }
  log.info(`Try: curl -H "Authorization: Bearer <management key>" ${api}/apps`);
  log.info(`Node SDK: new ReflagClient({ secretKey, apiBaseUrl: '${api}', flagsPushUrl: '${api}/sse/server' })`);
}

export interface Serving {
  /** The Node server, for closing its idle keep-alive connections at shutdown. */
  server: Server;
  /** Starts listening; resolves the port (default: `server.listen`). */
  listen?: (port: number) => Promise<number>;
  /** Stops accepting and resolves once every connection is gone (default: `server.close`). */
  close?: () => Promise<void>;
}

/**
 * Listens on `port` and shuts down on SIGINT/SIGTERM. The order matters: stop accepting first, then close
 * Flagmount (flushes buffered writes, ends SSE streams, closes the store), which lets the server's close finish.
 * Closing the server first and awaiting it would wait forever on the open streams.
 */
export async function serve(serving: Serving, instance: Flagmount, port: number): Promise<number> {
  const { server } = serving;
  const close = serving.close ?? (() => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))));
  const listen = serving.listen ?? listenNode(server);
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    const closed = close();
    await instance.close();
    // Keep-alive connections that went idle while closing (server.close only ends those idle when called).
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 3000).unref();
    await closed.catch((error: unknown) => log.error('server close failed', { error }));
    clearTimeout(force);
    log.info('stopped');
  };
  const onSignal = (signal: NodeJS.Signals) =>
    void stop(signal).catch((error: unknown) => {
      log.error('shutdown failed', { error });
      process.exitCode = 1;
    });
  // `once`: a second Ctrl-C during shutdown gets Node's default (immediate exit).
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return listen(port);
}

function listenNode(server: Server) {
  return (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
}
