/**
 * One replica of a host application on a shared Postgres schema, run as its own process (tests, benchmarks):
 *
 *   node --import tsx test/support/replica.ts     (forked by `startReplica` in ./replica-process.ts)
 *
 * It mounts Flagmount at `/flags` of an Express app, as a user's app would, and adds two host routes:
 *   GET /check?flag=&user=&env=   → { enabled, version, envId }: the in-process client's answer (no tracking);
 *                                   env is an environment id or name, `Development` when absent
 *   GET /versions                 → { [envId]: version }: the versions of this process's snapshots
 *
 * Environment: FLAGMOUNT_PG_URL, FLAGMOUNT_PG_SCHEMA, PORT (0: any free port), REPLICA_NAME,
 * FLAGMOUNT_PG_POLL_MS (safety-net poll while LISTEN is up; store default when unset).
 *
 * With an IPC channel it reports { type: 'loaded' } once its modules are loaded, waits for { type: 'go' } (so a test
 * can start several replicas' bootstraps at the same instant), then reports { type: 'ready', port, bootstrap }. Log
 * lines go to the parent as { type: 'log', level, message, fields } as well as to stderr. SIGTERM, or the parent going
 * away, closes Flagmount and the server, then the process exits.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFlagmount, type Flagmount } from '@flagmount/core';
import { flagmountExpress } from '@flagmount/express';
import { postgresStorage } from '@flagmount/storage-postgres';
import express from 'express';

export interface ReplicaReady {
  type: 'ready';
  port: number;
  pid: number;
  bootstrap: {
    created: boolean;
    managementKey?: string;
    organizationId: string;
    appId: string;
    environments: Array<{ id: string; name: string; publishableKey: string; secretKey: string }>;
  };
}

export interface ReplicaLog {
  type: 'log';
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

export interface CheckAnswer {
  enabled: boolean;
  /** The snapshot version the answer came from (-1: no snapshot of that environment in this process). */
  version: number;
  envId: string;
}

const name = process.env['REPLICA_NAME'] ?? `replica-${process.pid}`;
const send = (message: object): void => {
  if (process.connected) process.send?.(message);
};

function logger(level: ReplicaLog['level']) {
  return (message: string, fields?: Record<string, unknown>) => {
    const plain = fields ? JSON.parse(JSON.stringify(fields, (_k, v: unknown) => (v instanceof Error ? v.message : v))) : undefined;
    if (level !== 'debug') process.stderr.write(`[${name}] ${level} ${message}${plain ? ' ' + JSON.stringify(plain) : ''}\n`);
    send({ type: 'log', level, message, ...(plain ? { fields: plain } : {}) } satisfies ReplicaLog);
  };
}
const log = { debug: logger('debug'), info: logger('info'), warn: logger('warn'), error: logger('error') };

async function main(): Promise<void> {
  const connectionString = process.env['FLAGMOUNT_PG_URL'];
  if (!connectionString) throw new Error('FLAGMOUNT_PG_URL is required');
  const schema = process.env['FLAGMOUNT_PG_SCHEMA'] ?? 'public';
  const pollMs = process.env['FLAGMOUNT_PG_POLL_MS'] ? Number(process.env['FLAGMOUNT_PG_POLL_MS']) : undefined;

  if (process.send) {
    const go = new Promise<void>((resolve) => {
      const onMessage = (message: { type?: string }) => {
        if (message?.type !== 'go') return;
        process.off('message', onMessage);
        resolve();
      };
      process.on('message', onMessage);
    });
    send({ type: 'loaded' });
    await go;
  }

  const instance: Flagmount = await createFlagmount({
    storage: postgresStorage({ connectionString, schema, logger: log, ...(pollMs ? { pollIntervalMs: pollMs } : {}) }),
    logger: log,
    bootstrap: true,
  });

  const stateOf = (env: string) =>
    instance.services.snapshots.all().find((s) => s.environment.id === env || s.environment.name === env);

  const app = express();
  app.use('/flags', flagmountExpress(instance));
  app.get('/check', (req, res) => {
    const flag = String(req.query['flag'] ?? '');
    const user = String(req.query['user'] ?? '');
    const env = typeof req.query['env'] === 'string' && req.query['env'] ? req.query['env'] : 'Development';
    const enabled = instance.clientFor(env).isEnabled(flag, { user: { id: user }, enableTracking: false });
    const state = stateOf(env);
    res.json({ enabled, version: state?.version ?? -1, envId: state?.environment.id ?? '' } satisfies CheckAnswer);
  });
  app.get('/versions', (_req, res) => {
    res.json(Object.fromEntries(instance.services.snapshots.all().map((s) => [s.environment.id, s.version])));
  });

  const server = createServer({ maxHeaderSize: 65536 }, app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await instance.close();
      server.closeAllConnections();
      await closed;
    })()
      .catch((error: unknown) => log.error('replica shutdown failed', { error }))
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('disconnect', stop);

  const boot = instance.bootstrap;
  send({
    type: 'ready',
    port,
    pid: process.pid,
    bootstrap: {
      created: boot?.created ?? false,
      ...(boot?.managementKey ? { managementKey: boot.managementKey } : {}),
      organizationId: boot?.organizationId ?? '',
      appId: boot?.appId ?? '',
      environments: boot?.environments ?? [],
    },
  } satisfies ReplicaReady);
  if (!process.send) process.stdout.write(`${name} listening on http://127.0.0.1:${port}\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`[${name}] failed: ${message}\n`);
  if (process.connected) process.send!({ type: 'error', message }, () => process.exit(1));
  else process.exit(1);
});
