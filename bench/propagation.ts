import { channelName } from '@flagmount/storage-postgres';
import pg from 'pg';
import { dropSchemas, freshSchemaName, postgresAvailable, postgresUrl, redact, withDefaultUser } from '../test/support/postgres.js';
import { management, startReplicas, type Replica } from '../test/support/replica-process.js';
import type { BenchResult, Cell } from './lib/result.js';
import { envNumber, log } from './load/config.js';

/**
 * Propagation: how long a flag change made through one replica takes to be visible in another replica's
 * in-process client. Two replica processes (test/support/replica.ts: Express + Flagmount) share one Postgres
 * schema; every change goes through A's management API (rows 9: target / untarget one user, alternately), and B's
 * `/flags/sse/server` stream says when B's snapshot — the one its in-process client evaluates — has the new
 * version (B announces a version as it installs it). Each change waits for B before the next one starts.
 *
 * Three clocks, all read in this process:
 * - request → visible on B: from sending A the request to B's flags-updated event (what a person saving a change
 *   waits for, the write itself included);
 * - commit → visible on B: from the NOTIFY reaching a LISTEN connection of this process (the commit, give or take
 *   the delivery) to B's event: the propagation itself (B's notice, reload, announcement);
 * - A's answer: the write's round trip through A (transaction under the advisory lock, A's own reload).
 */

const TARGET_P99_MS = 100;

interface Sample {
  version: number;
  requestMs: number;
  visibleMs: number;
  commitToVisibleMs: number | null;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  if (!sorted.length) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Arrival times (performance.now()) of each version announced on an SSE `flags-updated` stream. */
class VersionStream {
  readonly seen = new Map<number, number>();
  #waiters: Array<{ version: number; resolve: (at: number) => void }> = [];
  #controller = new AbortController();

  static async open(replica: Replica, secretKey: string): Promise<VersionStream> {
    const stream = new VersionStream();
    const response = await replica.fetch('/flags/sse/server', {
      headers: { authorization: `Bearer ${secretKey}`, accept: 'text/event-stream' },
      signal: stream.#controller.signal,
    });
    if (response.status !== 200 || !response.body) throw new Error(`B's /sse/server answered ${response.status}`);
    void stream.#read(response.body);
    return stream;
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        const at = performance.now();
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          const message = JSON.parse(data.slice(6)) as { name?: string; data?: { flagStateVersion?: number } };
          const version = message.data?.flagStateVersion;
          if (message.name !== 'flags-updated' || typeof version !== 'number') continue;
          if (!this.seen.has(version)) this.seen.set(version, at);
          this.#waiters = this.#waiters.filter((w) => (w.version <= version ? (w.resolve(at), false) : true));
        }
      }
    } catch {
      // aborted at close
    }
  }

  /** Resolves with the arrival time of the first announced version ≥ `version`. */
  until(version: number, timeoutMs: number): Promise<number> {
    for (const [v, at] of this.seen) if (v >= version) return Promise.resolve(at);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`B did not announce version ${version} within ${timeoutMs} ms`)), timeoutMs);
      this.#waiters.push({
        version,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      });
    });
  }

  close(): void {
    this.#controller.abort();
  }
}

/** When each (environment, version) notice reached a LISTEN connection of this process: the commit, observed. */
async function listenForCommits(url: string, schema: string): Promise<{ commits: Map<string, number>; close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  const commits = new Map<string, number>();
  client.on('notification', (message) => {
    const at = performance.now();
    try {
      const notice = JSON.parse(message.payload ?? '') as { e: string; v: number };
      commits.set(`${notice.e}:${notice.v}`, at);
    } catch {
      // not ours
    }
  });
  await client.connect();
  await client.query(`LISTEN "${channelName(schema)}"`);
  return { commits, close: () => client.end().catch(() => undefined) };
}

export default async function run(): Promise<BenchResult> {
  const url = withDefaultUser(process.env['BENCH_PG_URL'] ?? postgresUrl);
  const changes = Math.max(200, Math.round(envNumber('BENCH_PROPAGATION_CHANGES', 300)));
  const warmup = Math.round(envNumber('BENCH_PROPAGATION_WARMUP', 30));
  const title = 'Propagation across replicas (Postgres)';
  const availability = await postgresAvailable(url);
  if (!availability.ok) {
    return {
      title,
      workload: 'Not measured.',
      tables: [],
      notes: [`No Postgres at ${redact(url)} (${availability.reason}); set BENCH_PG_URL or FLAGMOUNT_PG_URL.`],
    };
  }

  const schema = freshSchemaName().replace(/^fm_test_/, 'fm_bench_propagation_');
  log(`  starting replicas A and B on schema ${schema}…`);
  const replicas = await startReplicas([
    { name: 'A', url, schema },
    { name: 'B', url, schema },
  ]);
  const [a, b] = replicas as [Replica, Replica];
  let stream: VersionStream | undefined;
  let listener: Awaited<ReturnType<typeof listenForCommits>> | undefined;
  try {
    const key = [a, b].find((r) => r.bootstrap.created)!.bootstrap.managementKey!;
    const appId = a.bootstrap.appId;
    const dev = a.bootstrap.environments.find((e) => e.name === 'Development')!;
    const viaA = management(a, key);
    await viaA.createFlag(appId, 'propagated');
    // Targeting needs the user stored first (rows 9/11 answer 404 otherwise); an upsert moves no version.
    await viaA.upsertUser(appId, dev.id, 'bench-user');
    stream = await VersionStream.open(b, dev.secretKey);
    listener = await listenForCommits(url, schema);

    const samples: Sample[] = [];
    let mismatches = 0;
    log(`  ${warmup} unrecorded + ${changes} changes through A, each awaited on B…`);
    for (let i = 0; i < warmup + changes; i++) {
      const on = i % 2 === 0;
      const sent = performance.now();
      const { flagStateVersion: version } = await viaA.targetUser(appId, dev.id, 'bench-user', 'propagated', on ? true : null);
      const answered = performance.now();
      const visible = await stream.until(version, 10_000);
      // The in-process client of B answers with the new value (checked after the clock stopped).
      const check = await b.check('propagated', 'bench-user', dev.id);
      if (check.enabled !== on || check.version < version) mismatches++;
      if (i < warmup) continue;
      const committed = listener.commits.get(`${dev.id}:${version}`);
      samples.push({
        version,
        requestMs: answered - sent,
        visibleMs: visible - sent,
        commitToVisibleMs: committed === undefined ? null : visible - committed,
      });
    }
    if (mismatches) throw new Error(`B's in-process client disagreed with the announced version ${mismatches} times`);

    const visible = samples.map((s) => s.visibleMs);
    const commitToVisible = samples.flatMap((s) => (s.commitToVisibleMs === null ? [] : [s.commitToVisibleMs]));
    const request = samples.map((s) => s.requestMs);
    const row = (label: string, values: number[]): Cell[] => [
      label,
      values.length,
      Number(percentile(values, 50).toFixed(1)),
      Number(percentile(values, 90).toFixed(1)),
      Number(percentile(values, 99).toFixed(1)),
      Number(Math.max(...values).toFixed(1)),
    ];
    const p99Visible = percentile(visible, 99);
    const p99Propagation = percentile(commitToVisible, 99);
    const verdict = (p99: number) => (p99 <= TARGET_P99_MS ? 'meets' : 'misses');
    return {
      title,
      workload:
        `Two replica processes (Express + Flagmount, test/support/replica.ts) on one Postgres schema, default store options ` +
        `(LISTEN/NOTIFY, 5 s safety-net poll). ${changes} changes (after ${warmup} unrecorded) made one at a time through A's management API ` +
        `(targeting one user on and off, rows 9); a change counts as visible when B's \`/flags/sse/server\` stream announces its version, ` +
        `which B does as its in-process client starts evaluating it (each one then checked through B's client). Wall-clock milliseconds.`,
      tables: [
        {
          columns: ['Interval', 'changes', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
          rows: [
            row('request to A → visible on B', visible),
            row('commit (NOTIFY heard) → visible on B', commitToVisible),
            row("A's answer (write round trip)", request),
          ],
        },
      ],
      notes: [
        `Target p99 ≤ ${TARGET_P99_MS} ms: request → visible ${verdict(p99Visible)} it (${p99Visible.toFixed(1)} ms); ` +
          `commit → visible ${verdict(p99Propagation)} it (${p99Propagation.toFixed(1)} ms).`,
        '"commit → visible" starts when the NOTIFY reaches a LISTEN connection of the benchmark process, so it leaves out the write itself and measures what propagation adds: B hears the notice, reloads the environment from Postgres and installs the snapshot.',
        'Wall-clock times on a shared machine: a busy core delays any of the three processes, and the tail shows it.',
      ],
      data: { changes, warmup, schema: 'fresh per run', samples, targetP99Ms: TARGET_P99_MS },
    };
  } finally {
    stream?.close();
    await listener?.close();
    await Promise.all(replicas.map((r) => r.stop()));
    await dropSchemas([schema], url);
  }
}
