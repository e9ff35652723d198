/**
 * Child process: the physical limit for the ingestion benchmark. Inserts the benchmark's event rows straight
 * through the driver into a `track_events` table created by Flagmount's own migration (same columns, same
 * indexes), one 100-row INSERT per commit, for a fixed time. argv[2] = JSON RawInsertConfig.
 * Reports `{ type: 'result', rows, seconds, counted }`.
 */
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { pgUrl } from './pg.js';
import { rawRow, TRACK_COLUMNS } from './events.js';
import { fail, report } from '../servers/child.js';

export type RawInsertConfig =
  | { kind: 'sqlite'; filename: string; batch: number; seconds: number }
  | { kind: 'pg'; schema: string; batch: number; seconds: number; clients: number };

const ENV_ID = 'enrawbenchmark';

function placeholders(batch: number, dollar: boolean): string {
  const cols = TRACK_COLUMNS.length;
  return Array.from({ length: batch }, (_, r) => `(${Array.from({ length: cols }, (_, c) => (dollar ? `$${r * cols + c + 1}` : '?')).join(', ')})`).join(', ');
}

function rowsFrom(start: number, batch: number): string[] {
  const at = new Date().toISOString();
  const out: string[] = [];
  for (let i = 0; i < batch; i++) out.push(...rawRow(start + i, ENV_ID, at));
  return out;
}

async function sqlite(config: Extract<RawInsertConfig, { kind: 'sqlite' }>): Promise<{ rows: number; seconds: number; counted: number }> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(config.filename, (err) => (err ? reject(err) : resolve(d)));
  });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  // The store's own settings: WAL and synchronous=FULL (an acknowledged write survives a power cut).
  await exec('pragma busy_timeout = 5000; pragma journal_mode = wal; pragma synchronous = full;');
  const count = () =>
    new Promise<number>((resolve, reject) =>
      db.get(`select count(*) as n from track_events where env_id = ?`, [ENV_ID], (err, row: { n: number }) => (err ? reject(err) : resolve(row.n))),
    );
  const before = await count();
  const statement = db.prepare(`insert into track_events (${TRACK_COLUMNS.join(', ')}) values ${placeholders(config.batch, false)}`);
  const run = (params: string[]) => new Promise<void>((resolve, reject) => statement.run(params, (err) => (err ? reject(err) : resolve())));
  let rows = 0;
  const start = performance.now();
  const end = start + config.seconds * 1000;
  while (performance.now() < end) {
    await run(rowsFrom(rows, config.batch)); // one statement outside a transaction = one commit of `batch` rows
    rows += config.batch;
  }
  const seconds = (performance.now() - start) / 1000;
  const counted = (await count()) - before;
  await new Promise<void>((resolve) => statement.finalize(() => db.close(() => resolve())));
  return { rows, seconds, counted };
}

async function postgres(config: Extract<RawInsertConfig, { kind: 'pg' }>): Promise<{ rows: number; seconds: number; counted: number }> {
  const pool = new pg.Pool({ connectionString: pgUrl(), max: config.clients });
  const count = async () =>
    Number((await pool.query<{ n: string }>(`select count(*) as n from ${config.schema}.track_events where env_id = $1`, [ENV_ID])).rows[0]!.n);
  const before = await count();
  const text = `insert into ${config.schema}.track_events (${TRACK_COLUMNS.join(', ')}) values ${placeholders(config.batch, true)}`;
  let rows = 0;
  const start = performance.now();
  const end = start + config.seconds * 1000;
  const loop = async () => {
    const client = await pool.connect();
    try {
      while (performance.now() < end) {
        await client.query({ name: 'bench-insert', text, values: rowsFrom(rows, config.batch) });
        rows += config.batch;
      }
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: config.clients }, loop));
  const seconds = (performance.now() - start) / 1000;
  const counted = (await count()) - before;
  await pool.end();
  return { rows, seconds, counted };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2]!) as RawInsertConfig;
  const result = config.kind === 'sqlite' ? await sqlite(config) : await postgres(config);
  report({ type: 'result', ...result });
  process.disconnect?.();
}

main().catch(fail);
