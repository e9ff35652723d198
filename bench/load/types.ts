/** One HTTP request of a load run; the generator cycles through the list. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/flags/features/evaluated?contextJson=…`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  /** `http://127.0.0.1:PORT` (loopback only). */
  origin: string;
  requests: RequestSpec[];
  connections: number;
  durationSec: number;
  /** Fixed overall rate in requests/s; omitted = as fast as the server answers (closed loop). */
  rate?: number;
  /** Per-request timeout, seconds (default 10). */
  timeoutSec?: number;
}

export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  /** Completed responses (any status). */
  requests: number;
  /** Responses with a status ≥ 400. */
  non2xx: number;
  /** Connect/read/write errors and timeouts. */
  errors: number;
  durationSec: number;
  rps: number;
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}
