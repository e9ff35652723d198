import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { runLoad, type RequestSpec } from '../load/index.js';
import { bulkBodies, eventBodies } from '../peers/events.js';
import { dropSchema, withPg } from '../peers/pg.js';
import type { RawInsertConfig } from '../peers/raw-insert.js';
import { spawnChild, type Child } from './child.js';
import { BENCH_KEYS, PREFIX, type HostConfig, type StoreSpec } from './host-config.js';
import { openStore } from './stores.js';

/** One measured ingestion run: events per second, and whether every acknowledged event is in the table. */
export interface IngestRun {
  eventsPerSec: number;
  reqPerSec?: number;
  p99Ms?: number;
  acked: number;
  committed: number;
  /** Requests answered 200, and requests that failed (non-2xx, socket errors, timeouts). */
  okRequests: number;
  failedRequests: number;
}

export interface IngestSubject {
  id: string;
  store: 'SQLite' | 'Postgres';
  label: string;
  kind: 'raw' | 'bulk' | 'event';
  run(seconds: number): Promise<IngestRun>;
  stop(): Promise<void>;
}

const HOST = new URL('./host.ts', import.meta.url);
const RAW = new URL('../peers/raw-insert.ts', import.meta.url);

export const storeName = (spec: StoreSpec) => (spec.kind === 'sqlite' ? 'SQLite' : 'Postgres') as IngestSubject['store'];

/** Rows in `track_events`, read with plain SQL next to the running store. */
export async function countTracks(spec: StoreSpec): Promise<number> {
  if (spec.kind === 'pg') {
    return withPg(async (client) => Number((await client.query<{ n: string }>(`select count(*) as n from ${spec.schema}.track_events`)).rows[0]!.n));
  }
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(spec.filename, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(d)));
  });
  try {
    return await new Promise<number>((resolve, reject) =>
      db.get('select count(*) as n from track_events', (err, row: { n: number }) => (err ? reject(err) : resolve(row.n))),
    );
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

/** An empty store with Flagmount's schema: a fresh file, or a dropped-and-migrated Postgres schema. */
export async function freshStore(spec: StoreSpec): Promise<void> {
  // The Postgres store unrefs its sockets and retry pauses (right for a host); in this script nothing else may be
  // alive while it migrates, so hold the event loop open meanwhile.
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    if (spec.kind === 'pg') await dropSchema(spec.schema);
    const store = await openStore(spec);
    await store.migrate();
    await store.close();
  } finally {
    clearInterval(keepAlive);
  }
}

export function sqliteSpec(dir: string, name: string): StoreSpec {
  return { kind: 'sqlite', filename: join(dir, `${name}.db`) };
}

/** The raw driver peer: a fresh child per run, inserting 100-row statements for `seconds`. */
export function rawSubject(spec: StoreSpec, batch: number, clients = 1): IngestSubject {
  const store = storeName(spec);
  return {
    id: `raw-${spec.kind}${spec.kind === 'pg' ? `-${clients}` : ''}`,
    store,
    kind: 'raw',
    label:
      spec.kind === 'sqlite'
        ? `raw sqlite3: ${batch}-row INSERT per commit (WAL, synchronous=FULL)`
        : `raw pg: ${batch}-row INSERT per commit, ${clients} client${clients > 1 ? 's' : ''}`,
    async run(seconds) {
      const config: RawInsertConfig =
        spec.kind === 'sqlite' ? { kind: 'sqlite', filename: spec.filename, batch, seconds } : { kind: 'pg', schema: spec.schema, batch, seconds, clients };
      const child = spawnChild(RAW, { args: [JSON.stringify(config)] });
      try {
        const r = await child.message<{ type: 'result'; rows: number; seconds: number; counted: number }>('result', (seconds + 60) * 1000);
        return { eventsPerSec: r.rows / r.seconds, acked: r.rows, committed: r.counted, okRequests: r.rows / batch, failedRequests: 0 };
      } finally {
        await child.stop();
      }
    },
    stop: async () => undefined,
  };
}

export interface IngestHost {
  spec: StoreSpec;
  origin: string;
  child: Child;
}

/** Flagmount on Fastify with the given store, bootstrapped with the benchmark's keys. */
export async function startIngestHost(spec: StoreSpec): Promise<IngestHost> {
  const config: HostConfig = { mode: 'flagmount', framework: 'fastify', store: spec, ...BENCH_KEYS };
  const child = spawnChild(HOST, { args: [JSON.stringify(config)] });
  const ready = await child.message<{ type: 'ready'; port: number }>('ready');
  return { spec, origin: `http://127.0.0.1:${ready.port}`, child };
}

const headers = { authorization: `Bearer ${BENCH_KEYS.publishableKey}`, 'content-type': 'application/json' };

/** Flagmount's ingestion routes under wrk: acknowledged = 2xx responses × events per request. */
export function flagmountSubject(host: IngestHost, kind: 'bulk' | 'event', perRequest: number, connections: number): IngestSubject {
  const path = kind === 'bulk' ? `${PREFIX}/bulk` : `${PREFIX}/event`;
  const bodies = kind === 'bulk' ? bulkBodies(50, perRequest) : eventBodies(500);
  const events = kind === 'bulk' ? perRequest : 1;
  const requests: RequestSpec[] = bodies.map((body) => ({ method: 'POST', path, headers, body }));
  return {
    id: `flagmount-${host.spec.kind}-${kind}`,
    store: storeName(host.spec),
    kind,
    label: kind === 'bulk' ? `Flagmount POST /flags/bulk (${perRequest} events per request)` : 'Flagmount POST /flags/event (1 event per request)',
    async run(seconds) {
      const before = await countTracks(host.spec);
      const r = await runLoad({ origin: host.origin, requests, connections, durationSec: seconds });
      // Answers still in flight when the load stopped may commit after it: give them a moment before counting.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const committed = (await countTracks(host.spec)) - before;
      const ok = r.requests - r.non2xx;
      return { eventsPerSec: (ok * events) / r.durationSec, reqPerSec: ok / r.durationSec, p99Ms: r.p99Ms, acked: ok * events, committed, okRequests: ok, failedRequests: r.non2xx + r.errors };
    },
    stop: () => host.child.stop(),
  };
}

/** One request of each kind before timing: a 200 with `success: true`, nothing rejected, rows really added. */
export async function checkIngestion(host: IngestHost, perRequest: number): Promise<void> {
  const before = await countTracks(host.spec);
  for (const [path, body] of [
    [`${PREFIX}/bulk`, bulkBodies(1, perRequest)[0]!],
    [`${PREFIX}/event`, eventBodies(1)[0]!],
  ] as const) {
    const response = await fetch(`${host.origin}${path}`, { method: 'POST', headers, body });
    const text = await response.text();
    const answer = JSON.parse(text) as { success?: boolean; rejected?: unknown[] };
    if (response.status !== 200 || answer.success !== true || (answer.rejected?.length ?? 0) > 0) {
      throw new Error(`${path} on ${host.spec.kind} → ${response.status} ${text.slice(0, 300)}`);
    }
  }
  const added = (await countTracks(host.spec)) - before;
  if (added !== perRequest + 1) throw new Error(`ingestion check on ${host.spec.kind}: ${added} rows added, expected ${perRequest + 1}`);
}
