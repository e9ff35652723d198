import { runAutocannon } from './autocannon.js';
import type { LoadOptions, LoadResult } from './types.js';
import { runWrk, wrkAvailable } from './wrk.js';

export type { LoadOptions, LoadResult, RequestSpec } from './types.js';

let chosen: 'wrk' | 'autocannon' | undefined;

/** `BENCH_LOAD_TOOL=wrk|autocannon` forces one; by default wrk when installed (less CPU per request), else autocannon. */
export function loadTool(): 'wrk' | 'autocannon' {
  if (chosen) return chosen;
  const forced = process.env['BENCH_LOAD_TOOL'];
  if (forced === 'wrk' || forced === 'autocannon') chosen = forced;
  else chosen = wrkAvailable() ? 'wrk' : 'autocannon';
  return chosen;
}

/** Generates load from a separate process against a loopback origin. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(options.origin)) {
    throw new Error(`load generation is loopback only, got ${options.origin}`);
  }
  return loadTool() === 'wrk' ? runWrk(options) : runAutocannon(options);
}

export function describeLoadTool(): string {
  return loadTool() === 'wrk'
    ? 'wrk (separate process, 1 thread; fixed rate paced by its Lua `delay` hook)'
    : 'autocannon in a child process (fixed rate via `overallRate`, which paces per second)';
}
