import pg from 'pg';

export const POSTGRES_URL =
  process.env['FLAGMOUNT_PG_URL'] ?? process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether a server answers. Outside CI a missing server skips the Postgres tests with one line saying so; with
 * CI=true it fails them, so a broken CI database cannot pass silently.
 */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    if (process.env['CI'] === 'true') {
      throw new Error(`CI=true but no PostgreSQL answers at ${POSTGRES_URL}: ${(error as Error).message}`);
    }
    console.log(`storage-postgres tests skipped: no PostgreSQL at ${POSTGRES_URL} (set FLAGMOUNT_PG_URL)`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A schema name no other run uses. */
export function freshSchema(label: string): string {
  return `fm_${label}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
}

/** Runs SQL on a short-lived connection of its own. */
export async function admin<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  for (const schema of schemas) await admin(`drop schema if exists "${schema}" cascade`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}
