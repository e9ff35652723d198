import { median } from '../lib/measure.js';
import { runLoad, type LoadResult, type RequestSpec } from './index.js';

export interface Target {
  id: string;
  origin: string;
  requests: RequestSpec[];
  /** The server's process, when it is one of `RoundOptions.freeze`. */
  pid?: number;
}

export interface RoundOptions {
  connections: number;
  durationSec: number;
  /** Fixed rate per target (requests/s); a target without one runs closed-loop at its maximum. */
  rateOf?: (id: string) => number | undefined;
  log?: (line: string) => void;
  /**
   * Every server process of the benchmark: during a run all of them but the target's are stopped (SIGSTOP), then
   * resumed. An idle server is not always idle (Unleash's scheduled jobs wake every few seconds), and on 2 cores
   * its wake-ups showed in the tail latency of whichever system was under load.
   */
  freeze?: readonly number[];
  /**
   * Slices of a group's run: each target of a group runs `durationSec / slices` seconds at a time, in turn, until
   * each has had its `durationSec`; the slices then count as one run (requests over time; latency percentiles are
   * the median of the slices'). Default 1: one stretch each.
   */
  slices?: number;
  /**
   * The round this call starts at, and the rounds in all, when a benchmark makes its rounds one call at a time (a
   * fresh set of servers per round): the order keeps rotating as if it were one call, and the log counts all rounds.
   */
  firstRound?: number;
  totalRounds?: number;
}

function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone: its system's own run reports the failure.
    }
  }
}

/**
 * Runs every target `runs` times, round by round, rotating the order each round: on a noisy machine a slow
 * period then hits every peer alike instead of one of them. A group (an array) runs back to back, in reverse
 * order every other round: systems compared with each other (a system and its ceiling) then see the same machine,
 * and neither always goes first. With `slices`, a group's targets take turns within the run as well (see
 * `RoundOptions.slices`).
 */
export async function interleavedRuns(
  units: ReadonlyArray<Target | readonly Target[]>,
  runs: number,
  options: RoundOptions,
): Promise<Map<string, LoadResult[]>> {
  const groups = units.map((unit) => (Array.isArray(unit) ? (unit as readonly Target[]) : [unit as Target]));
  const results = new Map<string, LoadResult[]>(groups.flat().map((t) => [t.id, []]));
  const first = options.firstRound ?? 0;
  const total = options.totalRounds ?? first + runs;
  for (let round = first; round < first + runs; round++) {
    for (let i = 0; i < groups.length; i++) {
      const group = groups[(i + round) % groups.length]!;
      const ordered = round % 2 === 0 ? group : [...group].reverse();
      const slices = group.length > 1 ? Math.max(1, Math.round(options.slices ?? 1)) : 1;
      if (slices === 1) {
        for (const target of ordered) results.get(target.id)!.push(await runTarget(target, round, total, options));
        continue;
      }
      const parts = new Map<string, LoadResult[]>(group.map((t) => [t.id, []]));
      const sliceOptions = { ...options, durationSec: options.durationSec / slices, log: undefined };
      for (let slice = 0; slice < slices; slice++) {
        for (const target of slice % 2 === 0 ? ordered : [...ordered].reverse()) {
          parts.get(target.id)!.push(await runTarget(target, round, total, sliceOptions));
        }
      }
      for (const target of ordered) {
        const merged = mergeSlices(parts.get(target.id)!);
        results.get(target.id)!.push(merged);
        logRun(options, target, round, total, merged, `, ${slices} slices`);
      }
    }
  }
  return results;
}

async function runTarget(target: Target, round: number, runs: number, options: RoundOptions): Promise<LoadResult> {
  const rate = options.rateOf?.(target.id);
  const others = (options.freeze ?? []).filter((pid) => pid !== target.pid);
  signalAll(others, 'SIGSTOP');
  let result: LoadResult;
  try {
    result = await runLoad({
      origin: target.origin,
      requests: target.requests,
      connections: options.connections,
      durationSec: options.durationSec,
      ...(rate ? { rate } : {}),
    });
  } finally {
    signalAll(others, 'SIGCONT');
  }
  logRun(options, target, round, runs, result);
  return result;
}

/** Warm-up (JIT, caches, connection pools): one short closed-loop run per target, not recorded. */
export async function warmUp(targets: Target[], connections: number, durationSec: number): Promise<void> {
  for (const target of targets) {
    await runLoad({ origin: target.origin, requests: target.requests, connections, durationSec });
  }
}

export interface Summary {
  /** Median over the runs. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Every run's rps, in run order. */
  runs: number[];
  non2xx: number;
  errors: number;
  requests: number;
}

export function summarize(results: LoadResult[]): Summary {
  return {
    rps: median(results.map((r) => r.rps)),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    runs: results.map((r) => r.rps),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    requests: results.reduce((n, r) => n + r.requests, 0),
  };
}

function logRun(options: RoundOptions, target: Target, round: number, runs: number, result: LoadResult, note = ''): void {
  const rate = options.rateOf?.(target.id);
  options.log?.(
    `  run ${round + 1}/${runs} ${target.id}${rate ? ` @${Math.round(rate)}/s` : ''}: ${Math.round(result.rps)} req/s, ` +
      `p99 ${result.p99Ms.toFixed(2)} ms, non-2xx ${result.non2xx}, errors ${result.errors}${note}`,
  );
}

/** One run out of its slices: counts add up, the rate is requests over time, latencies are the slices' median. */
function mergeSlices(slices: readonly LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => slices.reduce((n, r) => n + pick(r), 0);
  const mid = (pick: (r: LoadResult) => number) => median(slices.map(pick));
  const requests = sum((r) => r.requests);
  const durationSec = sum((r) => r.durationSec);
  return {
    tool: slices[0]!.tool,
    requests,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    durationSec,
    rps: requests / durationSec,
    meanMs: sum((r) => r.meanMs * r.requests) / Math.max(1, requests),
    p50Ms: mid((r) => r.p50Ms),
    p90Ms: mid((r) => r.p90Ms),
    p99Ms: mid((r) => r.p99Ms),
    maxMs: Math.max(...slices.map((r) => r.maxMs)),
  };
}
