import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult, Cell } from './lib/result.js';
import { median } from './lib/measure.js';
import * as config from './load/config.js';
import { describeLoadTool } from './load/index.js';
import { dropSchema } from './peers/pg.js';
import type { StoreSpec } from './servers/host-config.js';
import {
  checkIngestion,
  flagmountSubject,
  freshStore,
  rawSubject,
  sqliteSpec,
  startIngestHost,
  type IngestRun,
  type IngestSubject,
} from './servers/ingest-systems.js';

/**
 * Ingestion: `POST /flags/bulk` (100 events per request) and `POST /flags/event`, on SQLite and on Postgres,
 * against the raw driver inserting the same rows in 100-row statements (the physical limit), in the same run.
 */

const PER_REQUEST = 100;
const TARGET_OF_RAW = 0.5;
const PG_SCHEMAS = { flagmount: 'flagmount_bench_ingest', raw: 'flagmount_bench_raw' };

export default async function run(): Promise<BenchResult> {
  // Insert rates settle within seconds: shorter runs than the HTTP benchmark keep `npm run bench` short.
  const seconds = config.envNumber('BENCH_INGEST_DURATION', Math.min(config.duration(), 6));
  const runs = config.runs();
  const connections = config.connections();
  const pgClients = Math.round(config.envNumber('BENCH_RAW_PG_CLIENTS', 4));
  const dir = await mkdtemp(join(tmpdir(), 'flagmount-bench-ingest-'));
  const specs = {
    sqliteFlagmount: sqliteSpec(dir, 'flagmount'),
    sqliteRaw: sqliteSpec(dir, 'raw'),
    pgFlagmount: { kind: 'pg', schema: PG_SCHEMAS.flagmount } as StoreSpec,
    pgRaw: { kind: 'pg', schema: PG_SCHEMAS.raw } as StoreSpec,
  };
  const subjects: IngestSubject[] = [];
  try {
    for (const spec of Object.values(specs)) await freshStore(spec);
    for (const spec of [specs.sqliteFlagmount, specs.pgFlagmount]) {
      const host = await startIngestHost(spec);
      subjects.push(flagmountSubject(host, 'bulk', PER_REQUEST, connections), flagmountSubject(host, 'event', PER_REQUEST, connections));
      await checkIngestion(host, PER_REQUEST);
    }
    subjects.push(rawSubject(specs.sqliteRaw, PER_REQUEST), rawSubject(specs.pgRaw, PER_REQUEST, 1), rawSubject(specs.pgRaw, PER_REQUEST, pgClients));

    config.log(`  warm-up ${config.warmup()} s each, then ${runs} × ${seconds} s per subject, interleaved`);
    for (const subject of subjects) await subject.run(config.warmup());
    const results = new Map<string, IngestRun[]>(subjects.map((s) => [s.id, []]));
    for (let round = 0; round < runs; round++) {
      for (let i = 0; i < subjects.length; i++) {
        const subject = subjects[(i + round) % subjects.length]!;
        const r = await subject.run(seconds);
        results.get(subject.id)!.push(r);
        config.log(
          `  run ${round + 1}/${runs} ${subject.id}: ${Math.round(r.eventsPerSec)} events/s, acked ${r.acked}, committed ${r.committed}` +
            (r.failedRequests ? `, failed requests ${r.failedRequests}` : ''),
        );
      }
    }
    const failing = [...results].filter(([, rs]) => rs.some((r) => r.failedRequests > 0.01 * (r.okRequests + r.failedRequests)));
    if (failing.length) throw new Error(`too many failed requests: ${failing.map(([id, rs]) => `${id} ${rs.map((r) => r.failedRequests).join('/')}`).join('; ')}`);
    return report(subjects, results, { seconds, runs, connections, pgClients });
  } finally {
    await Promise.all(subjects.map((s) => s.stop()));
    await rm(dir, { recursive: true, force: true });
    for (const schema of Object.values(PG_SCHEMAS)) await dropSchema(schema).catch(() => undefined);
  }
}

function report(
  subjects: IngestSubject[],
  results: Map<string, IngestRun[]>,
  input: { seconds: number; runs: number; connections: number; pgClients: number },
): BenchResult {
  const summary = (id: string) => {
    const runs = results.get(id)!;
    return {
      eventsPerSec: median(runs.map((r) => r.eventsPerSec)),
      reqPerSec: runs[0]?.reqPerSec === undefined ? undefined : median(runs.map((r) => r.reqPerSec!)),
      p99Ms: runs[0]?.p99Ms === undefined ? undefined : median(runs.map((r) => r.p99Ms!)),
      acked: runs.reduce((n, r) => n + r.acked, 0),
      committed: runs.reduce((n, r) => n + r.committed, 0),
      failed: runs.reduce((n, r) => n + r.failedRequests, 0),
      allCommitted: runs.every((r) => r.committed >= r.acked),
      runs: runs.map((r) => Math.round(r.eventsPerSec)),
    };
  };
  const limitOf = (store: string) => Math.max(...subjects.filter((s) => s.store === store && s.kind === 'raw').map((s) => summary(s.id).eventsPerSec));
  const rows: Cell[][] = subjects
    .slice()
    .sort((a, b) => a.store.localeCompare(b.store) || order(a.kind) - order(b.kind))
    .map((s) => {
      const m = summary(s.id);
      return [
        s.store,
        s.label,
        Math.round(m.eventsPerSec),
        m.reqPerSec === undefined ? null : Math.round(m.reqPerSec),
        m.p99Ms === undefined ? null : Number(m.p99Ms.toFixed(2)),
        `${((m.eventsPerSec / limitOf(s.store)) * 100).toFixed(1)} %`,
        m.acked,
        m.committed,
        m.allCommitted ? 'yes' : 'NO',
        m.runs.join(' / '),
      ];
    });
  const ratios: Record<string, number> = {};
  const notes: string[] = [];
  for (const store of ['SQLite', 'Postgres']) {
    for (const kind of ['bulk', 'event'] as const) {
      const s = subjects.find((x) => x.store === store && x.kind === kind)!;
      ratios[`${store.toLowerCase()}_${kind}_of_raw`] = summary(s.id).eventsPerSec / limitOf(store);
    }
    const bulk = ratios[`${store.toLowerCase()}_bulk_of_raw`]!;
    const bulkSubject = subjects.find((x) => x.store === store && x.kind === 'bulk')!;
    notes.push(
      `Target (${store}, bulk): ≥ ${TARGET_OF_RAW * 100} % of the raw rate → ${(bulk * 100).toFixed(1)} % (${bulk >= TARGET_OF_RAW ? 'met' : 'NOT met'}); ` +
        `every acknowledged event committed: ${summary(bulkSubject.id).allCommitted ? 'yes' : 'NO'}.`,
    );
  }
  const failed = subjects.filter((s) => summary(s.id).failed > 0);
  notes.push(
    failed.length === 0 ? 'No request failed (every response a 200).' : `Failed requests: ${failed.map((s) => `${s.id} ${summary(s.id).failed}`).join(', ')}.`,
    '"acked" counts events in 200 answers (bulk: 200 × 100); "committed" counts rows that appeared in `track_events` (plain SQL `count(*)` before and after each run). A 200 means committed, so committed ≥ acked must hold; it can exceed acked by requests still in flight when the load stopped.',
    'The limit column compares with the fastest raw peer of the same store. Flagmount group-commits concurrent requests (one transaction per short window), so it can write more rows per commit than the 100-row raw statement.',
  );
  return {
    title: 'Ingestion',
    workload:
      `Tracking events (\`{ event, userId, companyId, attributes }\`, event names that are not flag keys, so one \`track_events\` row each). ` +
      `Flagmount on Fastify with SQLite (file on local disk, WAL, synchronous=FULL) and with Postgres (own schema): \`POST /flags/bulk\` with ${PER_REQUEST} \`event\` items per request and single \`POST /flags/event\`, ` +
      `${describeLoadTool()}, ${input.connections} connections. Peer (the physical limit): the raw driver inserting the same rows into the same table (created by Flagmount's migration) ` +
      `as one ${PER_REQUEST}-row INSERT per commit: sqlite3 with the store's pragmas; pg with 1 and with ${input.pgClients} concurrent clients. ` +
      `${input.runs} runs of ${input.seconds} s per subject, interleaved, median reported.`,
    tables: [{ columns: ['Store', 'Subject', 'events/s', 'req/s', 'p99 ms', 'of raw limit', 'acked', 'committed', 'all committed', 'runs (events/s)'], rows }],
    notes,
    data: { ratios, subjects: Object.fromEntries(subjects.map((s) => [s.id, summary(s.id)])) },
  };
}

const order = (kind: IngestSubject['kind']) => ({ raw: 0, bulk: 1, event: 2 })[kind];
