/**
 * Child process: runs autocannon with the options in the JSON file given as argv[2] and prints one summary line.
 * Used when `wrk` is not installed; the load still comes from a process of its own.
 */
import { readFile } from 'node:fs/promises';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import type { LoadOptions } from './types.js';

interface Histogram {
  average: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
interface AutocannonResult {
  requests: { total: number };
  latency: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

const options = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as LoadOptions;
const result = (await autocannon({
  url: options.origin,
  connections: options.connections,
  duration: options.durationSec,
  timeout: options.timeoutSec ?? 10,
  ...(options.rate ? { overallRate: options.rate } : {}),
  requests: options.requests.map((r) => ({ method: r.method, path: r.path, headers: r.headers, body: r.body })),
})) as AutocannonResult;
process.stdout.write(
  'AUTOCANNON_JSON ' +
    JSON.stringify({
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      durationSec: result.duration,
      meanMs: result.latency.average,
      p50Ms: result.latency.p50,
      p90Ms: result.latency.p90,
      p99Ms: result.latency.p99,
      maxMs: result.latency.max,
    }) +
    '\n',
);
