import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import pg from 'pg';

/**
 * Postgres for tests: where the server is (FLAGMOUNT_PG_URL), whether it answers, and throwaway schemas so that
 * every run — and every store within a run — starts empty and leaves nothing behind.
 */

export const postgresUrl = withDefaultUser(process.env['FLAGMOUNT_PG_URL'] ?? 'postgres://127.0.0.1:5432/test');

/**
 * Like libpq (psql), a URL without a user connects as the OS user. node-postgres takes PGUSER or USER instead,
 * and fails when neither is set (containers, CI runners), so the user is filled in here in that case only.
 */
export function withDefaultUser(url: string): string {
  if (process.env['PGUSER'] || process.env['USER']) return url;
  try {
    const parsed = new URL(url);
    if (parsed.username) return url;
    parsed.username = userInfo().username;
    return parsed.toString();
  } catch {
    return url;
  }
}

export type Availability = { ok: true } | { ok: false; reason: string };

/** Resolves whether a server answers `select 1` at `url` within `timeoutMs`. Never rejects. */
export async function postgresAvailable(url = postgresUrl, timeoutMs = 3_000): Promise<Availability> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message || error.name : String(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Checks the server once per test file. Outside CI an absent server prints one line and resolves false (skip) —
 * or only resolves false when the run's global setup already printed that line; with CI=true it throws, so a CI
 * run can never pass by skipping Postgres.
 */
export async function requirePostgres(what: string, url = postgresUrl): Promise<boolean> {
  // The postgres project's global setup (test/postgres/global-setup.ts) found no server and said so once already.
  if (process.env['FLAGMOUNT_PG_CHECKED'] === 'absent' && url === postgresUrl && process.env['CI'] !== 'true') return false;
  const availability = await postgresAvailable(url);
  if (availability.ok) return true;
  const message = `${what}: no Postgres at ${redact(url)} (${availability.reason}); set FLAGMOUNT_PG_URL`;
  if (process.env['CI'] === 'true') throw new Error(`${message} — required when CI=true`);
  process.stderr.write(`SKIPPED ${message}\n`);
  return false;
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable FLAGMOUNT_PG_URL)';
  }
}

const runId = `fm_test_${process.pid}_${randomBytes(4).toString('hex')}`;
let counter = 0;

/** A new schema name, unique to this run (`fm_test_<pid>_<random>_<n>`); the schema itself is not created. */
export function freshSchemaName(): string {
  return `${runId}_${counter++}`;
}

/** Schemas handed out by a `SchemaPool`, all dropped by `dropAll()`. */
export class SchemaPool {
  private readonly names: string[] = [];

  constructor(private readonly url = postgresUrl) {}

  next(): string {
    const name = freshSchemaName();
    this.names.push(name);
    return name;
  }

  async dropAll(): Promise<void> {
    const names = this.names.splice(0);
    if (names.length === 0) return;
    await dropSchemas(names, this.url);
  }
}

export async function dropSchemas(names: readonly string[], url = postgresUrl): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for (const name of names) await client.query(`drop schema if exists ${quoteIdent(name)} cascade`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
