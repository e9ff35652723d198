import pg from 'pg';

/** The benchmark's Postgres: `BENCH_PG_URL`, else the local trust-auth database `test`. */
export function pgUrl(): string {
  return process.env['BENCH_PG_URL'] ?? process.env['FLAGMOUNT_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
}

export async function withPg<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops and recreates a schema: every run starts from an empty one. */
export async function freshSchema(schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  await withPg(async (client) => {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.query(`CREATE SCHEMA ${schema}`);
  });
}

export async function dropSchema(schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  await withPg((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).then(() => undefined));
}
