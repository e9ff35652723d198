import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult, Cell } from './lib/result.js';
import * as config from './load/config.js';
import { describeLoadTool, type LoadResult } from './load/index.js';
import { interleavedRuns, summarize, warmUp, type Summary } from './load/rounds.js';
import { median } from './lib/measure.js';
import { benchContexts, type BenchContext } from './peers/contexts.js';
import { describeMix, flagMix, type MixFlag } from './peers/flag-mix.js';
import { dropSchema } from './peers/pg.js';
import { startCeiling, startFlagmount, startInProcessBare, startUnleash, UNLEASH_SCHEMA, type System } from './servers/evaluate-systems.js';
import { FRAMEWORKS, type Framework } from './servers/host-config.js';

/**
 * HTTP evaluate-all: `GET /flags/features/evaluated?contextJson=…` for 50 flags through each adapter, against
 * Unleash's frontend API serving the same flags, and against each framework's bare-route ceiling.
 */

const TARGET_VS_UNLEASH = 10;
const TARGET_OF_CEILING = 0.6;
const TARGET_P99_MS = 5;
/**
 * The calibration route's busy loop (µs per request): about what a request path may cost for the 60 % target on
 * this machine, so that its share tells how far Flagmount's path is from that budget.
 */
const SPIN_MICROS = 15;

export default async function run(): Promise<BenchResult> {
  const duration = config.duration();
  const runs = config.runs();
  const connections = config.connections();
  const users = Math.round(config.envNumber('BENCH_USERS', 1000));
  const fixedFraction = config.envNumber('BENCH_FIXED_RATE_FRACTION', 0.5);
  const spinMicros = config.envNumber('BENCH_SPIN_US', SPIN_MICROS);
  // One-second turns at the maximum rate (see interleavedRuns): this machine's speed drifts over seconds (the
  // same bare route measured 12k–37k req/s within an hour), so ten-second stretches back to back put whole slow
  // phases on one side of a share; taking turns puts them on both.
  const slices = Math.max(1, Math.round(config.envNumber('BENCH_SLICES', duration)));
  const frameworks = config.envList('BENCH_FRAMEWORKS', FRAMEWORKS) as Framework[];
  const flags = flagMix(50);
  const contexts = benchContexts(users);
  const dir = await mkdtemp(join(tmpdir(), 'flagmount-bench-evaluate-'));
  let unleash: System | undefined;
  // The systems of the first run: labels, kinds and body sizes for the report (ids are the same in every run).
  let systems: System[] = [];
  const maxRuns = new Map<string, LoadResult[]>();
  const fixedRuns = new Map<string, LoadResult[]>();
  const rates = new Map<string, number[]>();
  const append = (into: Map<string, LoadResult[]>, results: Map<string, LoadResult[]>) => {
    for (const [id, list] of results) into.set(id, [...(into.get(id) ?? []), ...list]);
  };
  try {
    config.log('  starting Unleash (fresh schema, migrations, admin API seeding)…');
    unleash = await startUnleash(flags, contexts);
    for (let run = 0; run < runs; run++) {
      // Fresh processes for every run: how fast a process runs the same route varies from one process to the next
      // (the ceiling's route in Flagmount's process measured 84–104 % of the ceiling's, eight processes in a row),
      // so runs in one set of processes would all share that set's luck; three sets give three independent draws.
      const set = await startSet(frameworks, flags, contexts, join(dir, `run-${run + 1}`), spinMicros);
      try {
        if (run === 0) systems = [unleash, ...set];
        const members = run === 0 ? [unleash, ...set] : set;
        config.log(`  run ${run + 1}/${runs}: warm-up ${config.warmup()} s each, then ${duration} s per system, interleaved`);
        await warmUp(members, connections, config.warmup());
        const targets = [unleash, ...set].map((s) => ({ ...s, pid: s.child.pid }));
        const freeze = [...new Set(targets.map((t) => t.pid))];
        // Each Flagmount runs right next to its ceiling (see interleavedRuns): its share of the ceiling is taken per
        // round. The in-process bare route runs on Flagmount's other side.
        const rank = { inprocess: 0, flagmount: 1, ceiling: 2, spin: 3, unleash: 4 } as const;
        const unitOf = (f: Framework) => targets.filter((t) => t.framework === f).sort((a, b) => rank[a.kind] - rank[b.kind]);
        const units = [targets.filter((t) => !t.framework), ...frameworks.map(unitOf)];
        const rounds = { connections, durationSec: duration, freeze, firstRound: run, totalRounds: runs, log: config.log };
        const max = await interleavedRuns(units, 1, { ...rounds, slices });
        append(maxRuns, max);
        // Latency at a fixed, sustainable rate: a fraction of each system's own maximum in this run.
        const paced = targets.filter((s) => s.kind === 'flagmount' || s.kind === 'unleash');
        const rateOf = (id: string) => max.get(id)![0]!.rps * fixedFraction;
        for (const s of paced) rates.set(s.id, [...(rates.get(s.id) ?? []), rateOf(s.id)]);
        config.log(`  run ${run + 1}/${runs}: fixed rate, ${Math.round(fixedFraction * 100)} % of each system's maximum`);
        append(fixedRuns, await interleavedRuns(paced, 1, { ...rounds, rateOf }));
      } finally {
        await Promise.all(set.map((s) => s.child.stop()));
      }
    }
    const max = new Map([...maxRuns].map(([id, r]) => [id, summarize(r)]));
    const fixed = new Map([...fixedRuns].map(([id, r]) => [id, summarize(r)]));
    assertMostlyOk([...max, ...fixed]);
    const rateOf = (id: string) => median(rates.get(id)!);
    return report({ systems, max, fixed, rateOf, duration, runs, slices, connections, users, fixedFraction, spinMicros, flagsText: describeMix(flags) });
  } finally {
    await unleash?.child.stop();
    await rm(dir, { recursive: true, force: true });
    await dropSchema(UNLEASH_SCHEMA).catch(() => undefined);
  }
}

/** One run's Flagmount systems: per framework Flagmount, its in-process bare route, its ceiling (and spin route). */
async function startSet(frameworks: Framework[], flags: MixFlag[], contexts: BenchContext[], dir: string, spinMicros: number): Promise<System[]> {
  await mkdir(dir, { recursive: true });
  const set: System[] = [];
  try {
    for (const framework of frameworks) {
      config.log(`  starting Flagmount on ${framework}, its ceiling and the ceiling's route in Flagmount's process…`);
      const flagmount = await startFlagmount(framework, flags, contexts, dir);
      set.push(flagmount, await startInProcessBare(flagmount), await startCeiling(flagmount));
      // The calibration route runs for the adapter the target is set for.
      if (framework === 'fastify') set.push(await startCeiling(flagmount, spinMicros));
    }
    return set;
  } catch (error) {
    await Promise.all(set.map((s) => s.child.stop()));
    throw error;
  }
}

/** More than 1 % failed responses means the numbers measure an error path: refuse to report them. */
function assertMostlyOk(entries: Array<[string, Summary]>): void {
  const bad = entries.filter(([, s]) => s.non2xx + s.errors > s.requests * 0.01);
  if (bad.length) {
    throw new Error(`too many failed responses: ${bad.map(([id, s]) => `${id} ${s.non2xx} non-2xx + ${s.errors} errors of ${s.requests}`).join('; ')}`);
  }
}

interface ReportInput {
  systems: System[];
  max: Map<string, Summary>;
  fixed: Map<string, Summary>;
  rateOf: (id: string) => number;
  duration: number;
  runs: number;
  /** Turns per run taken by the systems of one framework at the maximum rate. */
  slices: number;
  connections: number;
  users: number;
  fixedFraction: number;
  spinMicros: number;
  flagsText: string;
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
const times = (x: number) => `${x.toFixed(1)}×`;

/**
 * The share of the ceiling, round by round (the two ran back to back), then the median: a slow minute of a shared
 * host then lowers both sides of one ratio instead of one side of the median ratio.
 */
const roundShares = (system: Summary, ceiling: Summary) => system.runs.map((rps, i) => rps / ceiling.runs[i]!);
const shareOf = (system: Summary, ceiling: Summary) => median(roundShares(system, ceiling));

function report(input: ReportInput): BenchResult {
  const { systems, max, fixed } = input;
  const unleash = max.get('unleash')!;
  const ceilingOf = (s: System) => (s.framework ? max.get(`ceiling-${s.framework}`) : undefined);
  const maxRows: Cell[][] = systems.map((s) => {
    const m = max.get(s.id)!;
    const ceiling = s.kind === 'flagmount' || s.kind === 'inprocess' || s.kind === 'spin' ? ceilingOf(s) : undefined;
    return [
      s.label,
      Math.round(m.rps),
      Number(m.p50Ms.toFixed(2)),
      Number(m.p99Ms.toFixed(2)),
      s.kind === 'unleash' ? '1.0×' : times(m.rps / unleash.rps),
      ceiling ? pct(shareOf(m, ceiling)) : s.kind === 'ceiling' ? '100 %' : null,
      s.responseBytes,
      m.runs.map((r) => Math.round(r)).join(' / '),
    ];
  });
  const fixedRows: Cell[][] = systems
    .filter((s) => fixed.has(s.id))
    .map((s) => {
      const f = fixed.get(s.id)!;
      return [s.label, Math.round(input.rateOf(s.id)), Math.round(f.rps), Number(f.p50Ms.toFixed(2)), Number(f.p99Ms.toFixed(2)), f.p99Ms < TARGET_P99_MS ? 'yes' : 'no'];
    });

  const ratios: Record<string, number> = {};
  const notes: string[] = [];
  for (const s of systems.filter((x) => x.kind === 'flagmount')) {
    const m = max.get(s.id)!;
    const ceiling = ceilingOf(s)!;
    ratios[`${s.framework}_vs_unleash`] = m.rps / unleash.rps;
    const inProcess = max.get(`inprocess-${s.framework}`)!;
    const ofCeiling = shareOf(m, ceiling);
    const inProcessOfCeiling = shareOf(inProcess, ceiling);
    const ofInProcess = shareOf(m, inProcess);
    ratios[`${s.framework}_of_ceiling`] = ofCeiling;
    ratios[`${s.framework}_inprocess_of_ceiling`] = inProcessOfCeiling;
    ratios[`${s.framework}_of_inprocess`] = ofInProcess;
    notes.push(
      `${s.framework}: the ceiling's bare route inside Flagmount's host app reaches ${pct(inProcessOfCeiling)} of the ceiling ` +
        `(rounds: ${roundShares(inProcess, ceiling).map(pct).join(', ')}), and Flagmount ${pct(ofInProcess)} of that route ` +
        `(rounds: ${roundShares(m, inProcess).map(pct).join(', ')}): the first gap is what sharing a process with Flagmount costs a route that runs none of its code, the second is Flagmount's own request path.`,
    );
    const spin = max.get(`spin-${s.framework}`);
    if (spin) {
      const spinOfCeiling = shareOf(spin, ceiling);
      ratios[`${s.framework}_spin_of_ceiling`] = spinOfCeiling;
      notes.push(
        `${s.framework}: the ceiling's route spending ${input.spinMicros} µs of CPU per request in a busy loop before answering reaches ${pct(spinOfCeiling)} of the ceiling ` +
          `(rounds: ${roundShares(spin, ceiling).map(pct).join(', ')}): a request path of known cost, for scale.`,
      );
    }
    if (s.framework === 'fastify') {
      const f = fixed.get(s.id)!;
      const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
      notes.push(
        `Targets (Fastify adapter): ≥ ${TARGET_VS_UNLEASH}× Unleash → ${times(m.rps / unleash.rps)} (${verdict(m.rps / unleash.rps >= TARGET_VS_UNLEASH)}); ` +
          `≥ ${pct(TARGET_OF_CEILING)} of ceiling → ${pct(ofCeiling)} (rounds: ${roundShares(m, ceiling).map(pct).join(', ')}; ${verdict(ofCeiling >= TARGET_OF_CEILING)}); ` +
          `p99 < ${TARGET_P99_MS} ms → ${m.p99Ms.toFixed(2)} ms at maximum rate (${verdict(m.p99Ms < TARGET_P99_MS)}), ` +
          `${f.p99Ms.toFixed(2)} ms at ${Math.round(input.rateOf(s.id))} req/s (${verdict(f.p99Ms < TARGET_P99_MS)}).`,
      );
    }
  }
  const failures = systems.map((s) => [s, max.get(s.id)!, fixed.get(s.id)] as const).filter(([, m, f]) => m.non2xx + m.errors + (f ? f.non2xx + f.errors : 0) > 0);
  notes.push(
    failures.length === 0
      ? 'Every response of every run was a 200 (no non-2xx, no socket errors or timeouts).'
      : `Non-2xx or errors: ${failures.map(([s, m, f]) => `${s.label}: ${m.non2xx + (f?.non2xx ?? 0)} non-2xx, ${m.errors + (f?.errors ?? 0)} errors`).join('; ')}.`,
    'Before timing, each system was checked to serve the same flags: for 12 contexts the enabled set of every constant, attribute and segment flag equals the expected one on Flagmount and on Unleash. Rollout flags use each system\'s own hash (Reflag\'s SHA-256 bucket, Unleash\'s murmur3 stickiness), so which users fall in a rollout differs; the share does not.',
    `Response sizes differ by design: Flagmount's /features/evaluated answers every flag with its evaluation details (${systems.find((s) => s.kind === 'flagmount')?.responseBytes ?? '?'} bytes here), Unleash's frontend API lists only the enabled toggles (${systems.find((s) => s.kind === 'unleash')!.responseBytes} bytes).`,
    'Fixed-rate latency is measured the way wrk measures it, from each request\'s actual send: when the server falls behind, the pacing waits instead of queueing, so p99 at a fixed rate is not corrected for coordinated omission (wrk2 would be; it is not packaged).',
    'Each server runs in its own child process. Every run starts its own Flagmount processes, ceilings and busy-loop route (a new SQLite file, seeded again, warmed up again); Unleash starts once. During each turn every server but the one under load is stopped (SIGSTOP, resumed after): idle servers still wake up (Unleash runs scheduled jobs), which showed in the tail latency of the system under load. 2-core machine: the load generator and the server share it, so absolute numbers are machine-bound and the ratios are the result.',
    "The fixed rate of a run is the stated fraction of that system's maximum in the same run (its processes do not outlive the run); the table's target is the median of the runs' targets.",
  );

  return {
    title: 'HTTP evaluate-all',
    workload:
      `${input.flagsText}, one environment. \`GET /flags/features/evaluated?contextJson=…&publishableKey=…\` rotating over ${input.users} users ` +
      `(each with plan, country and a company with a tier), through Flagmount mounted in Express, Koa and Fastify (SQLite store), ` +
      `vs Unleash 7.5.1's \`GET /api/frontend?userId=…&plan=…\` (frontend token, Postgres, own schema, configured through its admin API), ` +
      `vs a bare route of each framework answering Flagmount's bytes (the ceiling), and that same route registered in Flagmount's host app next to the mount (at \`/fixed\`, same process), and for Fastify that route after a busy loop of ${input.spinMicros} µs per request (a path of known cost, for scale). Load: ${describeLoadTool()}, ${input.connections} connections, ` +
      `${input.duration} s per run, ${input.runs} runs per system interleaved, each in fresh processes, median reported; each Flagmount runs right between its in-process bare route and its ceiling (the order swapped every other round)${input.slices > 1 ? `, the systems of one framework taking ${input.slices} turns of ${(input.duration / input.slices).toFixed(1)} s each within a run at the maximum rate (its rate: requests over time; its p50/p99: the median of its turns')` : ''}, and its share of the ceiling is the median of the rounds' shares; then the same at a fixed ${pct(input.fixedFraction)} of each system's own maximum.`,
    tables: [
      { title: `Maximum rate (closed loop, ${input.connections} connections), median of ${input.runs} runs`, columns: ['System', 'req/s', 'p50 ms', 'p99 ms', 'vs Unleash', 'of ceiling', 'body bytes', 'runs (req/s)'], rows: maxRows },
      { title: `Fixed rate (${pct(input.fixedFraction)} of each system's maximum), median of ${input.runs} runs`, columns: ['System', 'target req/s', 'req/s', 'p50 ms', 'p99 ms', `p99 < ${TARGET_P99_MS} ms`], rows: fixedRows },
    ],
    notes,
    data: {
      ratios,
      max: Object.fromEntries(max),
      fixed: Object.fromEntries(fixed),
      responseBytes: Object.fromEntries(systems.map((s) => [s.id, s.responseBytes])),
      connections: input.connections,
      durationSec: input.duration,
      runs: input.runs,
    },
  };
}
