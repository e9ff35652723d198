/** What a host child runs, passed as JSON in argv[2]. */
export type Framework = 'express' | 'koa' | 'fastify';
export const FRAMEWORKS: readonly Framework[] = ['express', 'koa', 'fastify'];

export type StoreSpec = { kind: 'sqlite'; filename: string } | { kind: 'pg'; schema: string };

export interface BareResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type HostConfig =
  | {
      mode: 'flagmount';
      framework: Framework;
      store: StoreSpec;
      managementKey: string;
      publishableKey: string;
      secretKey: string;
      /**
       * A bare route at this path in the same app, registered before the mount, answering what the parent sends
       * later (`{ type: 'bare-answer', response }`, acknowledged with `bare-ready`): the ceiling's route in
       * Flagmount's own process.
       */
      barePath?: string;
    }
  | {
      /** The ceiling: a plain route of the framework answering fixed bytes at the same path. */
      mode: 'bare';
      framework: Framework;
      path: string;
      response: BareResponse;
      /** CPU time (µs) the route spends before answering: a request path of known cost, for calibration. */
      spinMicros?: number;
    };

/** Fixed keys, so that every host (and every run) is configured alike. SDK keys are 30–36 characters. */
export const BENCH_KEYS = {
  managementKey: 'fm_mgmt_benchmark_key_0123456789abcdef',
  publishableKey: 'pub_benchmark_0123456789abcdefghij',
  secretKey: 'sec_benchmark_0123456789abcdefghij',
} as const;

export const PREFIX = '/flags';
/** The in-process bare route's prefix: as long as PREFIX, so that its requests are the same size. */
export const BARE_PREFIX = '/fixed';

/** Response headers that describe the connection or the moment, not the answer. */
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export function stableHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!VOLATILE.has(name)) out[name] = value;
  });
  return out;
}
