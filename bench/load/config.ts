/** Benchmark knobs from the environment, so a quick run and a careful one use the same code. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

export function envList(name: string, fallback: readonly string[]): string[] {
  const raw = process.env[name];
  return raw ? raw.split(',').map((s) => s.trim()).filter(Boolean) : [...fallback];
}

/** Seconds of each measured load run (`BENCH_DURATION`, default 10). */
export const duration = () => envNumber('BENCH_DURATION', 10);
/** Measured runs per subject; the median is reported (`BENCH_RUNS`, default 3). */
export const runs = () => Math.round(envNumber('BENCH_RUNS', 3));
/** Seconds of the unrecorded warm-up run (`BENCH_WARMUP`, default 3). */
export const warmup = () => envNumber('BENCH_WARMUP', 3);
/** Concurrent connections of the load generator (`BENCH_CONNECTIONS`, default 10). */
export const connections = () => Math.round(envNumber('BENCH_CONNECTIONS', 10));

export const log = (line: string) => console.log(line);
