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
 * and neither always goes first.
 */
export async function interleavedRuns(
  units: ReadonlyArray<Target | readonly Target[]>,
  runs: number,
  options: RoundOptions,
): Promise<Map<string, LoadResult[]>> {
  const groups = units.map((unit) => (Array.isArray(unit) ? (unit as readonly Target[]) : [unit as Target]));
  const results = new Map<string, LoadResult[]>(groups.flat().map((t) => [t.id, []]));
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < groups.length; i++) {
      const group = groups[(i + round) % groups.length]!;
      for (const target of round % 2 === 0 ? group : [...group].reverse()) {
        results.get(target.id)!.push(await runTarget(target, round, runs, options));
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
  options.log?.(
    `  run ${round + 1}/${runs} ${target.id}${rate ? ` @${Math.round(rate)}/s` : ''}: ${Math.round(result.rps)} req/s, ` +
      `p99 ${result.p99Ms.toFixed(2)} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
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
