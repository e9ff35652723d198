/**
 * Child process: Unleash (unleash-server 7.5.1, open-source) on the benchmark's Postgres, in its own schema.
 * argv[2] = schema. Reports `{ type: 'ready', port, adminToken, frontendToken }` once it listens.
 * Telemetry and version checks are off; the network is loopback only anyway.
 */
import type { AddressInfo } from 'node:net';
import { LogLevel, start } from 'unleash-server';
import { pgUrl } from '../peers/pg.js';
import { fail, report } from './child.js';

const UNLEASH_ADMIN_TOKEN = '*:*.flagmount-bench-admin-token';
const UNLEASH_FRONTEND_TOKEN = 'default:development.flagmount-bench-frontend-token';

async function main(): Promise<void> {
  const schema = process.argv[2] ?? 'unleash_bench';
  const url = new URL(pgUrl());
  const unleash = await start({
    db: {
      host: url.hostname,
      port: Number(url.port || 5432),
      user: decodeURIComponent(url.username) || process.env['USER'] || 'root',
      password: decodeURIComponent(url.password) || undefined,
      database: url.pathname.slice(1) || 'test',
      schema,
      ssl: false,
      disableMigration: false,
    } as never,
    server: { host: '127.0.0.1', port: 0, enableRequestLogger: false, gracefulShutdownEnable: false },
    versionCheck: { enable: false },
    logLevel: LogLevel.error,
    authentication: {
      enableApiToken: true,
      initApiTokens: [
        { environment: '*', projects: ['*'], secret: UNLEASH_ADMIN_TOKEN, type: 'admin', tokenName: 'bench-admin' },
        {
          environment: 'development',
          projects: ['default'],
          secret: UNLEASH_FRONTEND_TOKEN,
          type: 'frontend',
          tokenName: 'bench-frontend',
        },
      ],
    } as never,
  });
  const address = unleash.server?.address() as AddressInfo;
  const stop = () => {
    void unleash.stop().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  report({ type: 'ready', port: address.port, adminToken: UNLEASH_ADMIN_TOKEN, frontendToken: UNLEASH_FRONTEND_TOKEN });
}

main().catch(fail);
