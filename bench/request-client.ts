import { createFlagmount, requestBinder, silentLogger, type FlagContext, type Flagmount, type RequestFlags } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { discardingAnalytics } from './peers/analytics-discarding.js';
import { interleave, type Measurement, type Subject } from './lib/measure.js';
import type { BenchResult, Cell } from './lib/result.js';
import { formatNumber } from './lib/table.js';

/**
 * Issue 36: what a request-bound client costs next to the plain in-process call. Per operation, one host request
 * asks one flag: `flags.client.isEnabled(key, context)` against binding the request (the host's `context(req)`,
 * a `RequestFlags`) and `req.flags.isEnabled(key)` — the worst case for the per-request memo, which pays off from
 * the second read. Then the same with `current: true` (AsyncLocalStorage around the rest of the request). The flag:
 * `company.plan IS enterprise`, then a 50% rollout on the user id; 400,000 distinct users, checks recorded.
 */

const CONTEXTS = Number(process.env.BENCH_REQUEST_CONTEXTS ?? 400_000);
// Rounds of 20,000: the two rows differ by tens of nanoseconds and this machine's batches by hundreds.
const ROUNDS = 20;
const BATCH = CONTEXTS / ROUNDS;
const FLAG = 'bench';
const KEY = 'fmk_bench_management_key_0123456789abcdefghij';

interface FakeRequest {
  context: FlagContext;
}

/**
 * The requests of one batch, made afresh for each subject before its timed batch, as a server makes each request
 * anew. Shared ones made whichever subject ran first in a round pay the cache misses of reading them (about half
 * as much again per request), and with the order rotating, each row's median became a coin flip between the two.
 */
const requestsOf = (offset: number, count: number): FakeRequest[] =>
  Array.from({ length: count }, (_, k) => {
    const i = offset + k;
    const company = { id: `co-${i % 997}`, plan: i % 10 ? 'pro' : 'enterprise' };
    return { context: { user: { id: `user-${Math.imul(i + 1, 2654435761) >>> 0}` }, company } };
  });

async function instanceWithFlag(): Promise<Flagmount> {
  const instance = await createFlagmount({ storage: discardingAnalytics(memoryStorage()), logger: silentLogger, bootstrap: { managementKey: KEY } });
  const { appId, environments } = instance.bootstrap!;
  const call = (method: string, path: string, value: unknown) =>
    instance.handler({ method, path, query: [], headers: { authorization: `Bearer ${KEY}` }, body: { kind: 'parsed', value } });
  await call('POST', `/apps/${appId}/flags`, { key: FLAG, name: FLAG });
  const rules = [
    { filter: { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] } },
    { filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50_000 } },
  ];
  const answer = await call('PUT', `/apps/${appId}/flags/${FLAG}/targeting/${environments[0]!.id}`, { rules });
  if (answer.status !== 200) throw new Error(`bench set-up failed: ${answer.status}`);
  return instance;
}

/**
 * One instance per subject, so that each meets every user for the first time, as eval.ts does (sharing one, the
 * subject that ran second in a round only looked up users the first had just counted). Both flush before every
 * batch, untimed (a full buffer drops checks, which is cheaper than counting them), and the batch's requests are made.
 */
function subjects(plain: Flagmount, bound: Flagmount, current: boolean): Subject[] {
  const binder = requestBinder<FakeRequest>(bound, { context: (req) => req.context, current });
  const client = plain.client;
  const prepared = () => {
    const batch = { requests: [] as FakeRequest[] };
    const prepare = async (offset: number, count: number) => {
      await plain.client.flush();
      await bound.client.flush();
      batch.requests = requestsOf(offset, count);
    };
    return { batch, prepare };
  };
  const direct = prepared();
  const viaRequest = prepared();
  // The last request's flags stay alive, as in a server with requests in flight: the bench's full collection before
  // each batch would otherwise drop RequestFlags' hidden class and the optimised code built on it (see eval.ts).
  const kept: { flags?: RequestFlags } = {};
  return [
    {
      name: 'flags.client.isEnabled(key, context)',
      prepare: direct.prepare,
      run() {
        const { requests } = direct.batch;
        let on = 0;
        for (let i = 0; i < requests.length; i++) if (client.isEnabled(FLAG, requests[i]!.context)) on++;
        return on;
      },
    },
    {
      name: current ? 'req.flags.isEnabled(key), current: true' : 'req.flags.isEnabled(key)',
      prepare: viaRequest.prepare,
      run() {
        const { requests } = viaRequest.batch;
        let on = 0;
        for (let i = 0; i < requests.length; i++) {
          const flags = (kept.flags = binder.bind(requests[i]!) as RequestFlags);
          if (binder.run(flags, () => flags.isEnabled(FLAG))) on++;
        }
        return on;
      },
    },
  ];
}

function table(measurements: Measurement[]): { columns: string[]; rows: Cell[][] } {
  const base = measurements[0]!.median;
  return {
    columns: ['call', 'ns/request (CPU, median)', 'range over rounds', 'ns (wall)', '× client.isEnabled'],
    rows: measurements.map((m) => [
      m.name,
      m.median,
      `${formatNumber(Math.min(...m.samples))}–${formatNumber(Math.max(...m.samples))}`,
      m.wallMedian,
      `${(m.median / base).toFixed(3)}×`,
    ]),
  };
}

export default async function run(): Promise<BenchResult> {
  const instances = await Promise.all([0, 1, 2, 3].map(() => instanceWithFlag()));
  const [offPlain, offBound, onPlain, onBound] = instances as [Flagmount, Flagmount, Flagmount, Flagmount];
  try {
    const options = { rounds: ROUNDS, batch: BATCH, warmup: 20_000 };
    // Off first: turning `current` on creates the AsyncLocalStorage for the rest of the process.
    const off = await interleave(subjects(offPlain, offBound, false), options);
    const on = await interleave(subjects(onPlain, onBound, true), options);
    const ratio = (m: Measurement[]) => m[1]!.median / m[0]!.median;
    return {
      title: 'Request-bound client: req.flags.isEnabled vs flags.client.isEnabled',
      workload: `${CONTEXTS} requests with distinct users, one flag read per request (rule + 50% rollout), checks recorded; ${ROUNDS} interleaved rounds, an instance per subject, each batch's requests made afresh`,
      tables: [
        { title: 'current off (no AsyncLocalStorage)', ...table(off) },
        { title: 'current on (AsyncLocalStorage.run around each request)', ...table(on) },
      ],
      notes: [
        `req.flags costs ${((ratio(off) - 1) * 100).toFixed(1)} % over client.isEnabled with current off, ${((ratio(on) - 1) * 100).toFixed(1)} % with current on (the bar: within 10 %)`,
        'One read per request is the memo\'s worst case: each further read of the same flag in a request costs a Map lookup, no evaluation and no check.',
      ],
      data: { off: off.map(({ name, median }) => ({ name, median })), on: on.map(({ name, median }) => ({ name, median })) },
    };
  } finally {
    for (const instance of instances) await instance.close();
  }
}
