import type { LDContext } from '@launchdarkly/node-server-sdk';
import { compileSnapshot, rolloutHash, rolloutHashImplementation } from '@flagmount/engine';
import { interleave, type Measurement, type Subject } from './lib/measure.js';
import type { BenchResult, Cell } from './lib/result.js';
import { formatNumber } from './lib/table.js';
import {
  flagd,
  flagmountFlag,
  growthbookClient,
  launchDarkly,
  reflagEvaluator,
  silentLogger,
  unleash,
} from './peers/eval-engines.js';
import { requestBinder, type FlagContext, type FlagmountClient, type RequestFlags } from '@flagmount/core';
import { flagmountWithFlag } from './peers/flagmount-client.js';

/**
 * Issue 5: in-process evaluation cost of one flag, the same flag in every engine: rule 1 `company.plan IS
 * enterprise`, rule 2 a 50% rollout on the user id. 1M contexts with distinct user ids, 10% enterprise.
 * Then 50 such flags evaluated at once for one context, where the engine has an all-flags call.
 * The flag in each engine's format, and the engines' offline set-up, are in peers/eval-engines.ts.
 */

// BENCH_EVAL_CONTEXTS shrinks the run for a smoke test; RESULTS.md should come from the full million.
const CONTEXTS = Number(process.env.BENCH_EVAL_CONTEXTS ?? 1_000_000);
const ROUNDS = 10;
const BATCH = CONTEXTS / ROUNDS;
const WARMUP = 30_000;
const FLAG = 'bench';
const ALL_FLAGS = 50;
// The client rows differ by tens of nanoseconds and this machine's batches by hundreds: twice the rounds (of half
// the size, the same million users) give their medians more to stand on.
const SERVED_ROUNDS = 20;
const SERVED_BATCH = CONTEXTS / SERVED_ROUNDS;
const ALL_ROUNDS = 10;
const ALL_BATCH = 2_000;

// Deterministic workload: the same ids and plans on every run.
function workload() {
  let seed = 0x2545f491;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const ids = Array.from({ length: CONTEXTS }, (_, i) => `user-${Math.imul(i + 1, 2654435761) >>> 0}`);
  const plans = Array.from({ length: CONTEXTS }, () =>
    random() < 0.1 ? 'enterprise' : random() < 0.5 ? 'pro' : 'free',
  );
  return { ids, plans };
}

const { ids, plans } = workload();

// ---------------------------------------------------------------- engines

type Shared = { user: { id: string }; company: { plan: string } };
const sharedContext = (i: number): Shared => ({ user: { id: ids[i]! }, company: { plan: plans[i]! } });

/** A subject over the context list: `shape` builds an engine's own context outside the timed loop. */
function subject<C>(
  name: string,
  shape: (i: number) => C,
  evaluate: (context: C) => boolean | Promise<boolean>,
): Subject {
  let contexts: C[] = [];
  return {
    name,
    prepare(offset, count) {
      contexts = Array.from({ length: count }, (_, i) => shape(offset + i));
    },
    async run() {
      let enabled = 0;
      for (let i = 0; i < contexts.length; i++) if (await evaluate(contexts[i]!)) enabled++;
      return enabled;
    },
  };
}

/** Same, for engines with a synchronous API (no await in the loop, which would cost them a microtask each). */
function syncSubject<C>(name: string, shape: (i: number) => C, evaluate: (context: C) => boolean): Subject {
  let contexts: C[] = [];
  return {
    name,
    prepare(offset, count) {
      contexts = Array.from({ length: count }, (_, i) => shape(offset + i));
    },
    run() {
      let enabled = 0;
      for (let i = 0; i < contexts.length; i++) if (evaluate(contexts[i]!)) enabled++;
      return enabled;
    },
  };
}

/** One event-loop turn every this many calls, as a server gives between requests: timers (the client's flush) run. */
const TURN_EVERY = 1_000;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * As `syncSubject`, with an event-loop turn every TURN_EVERY calls (the host's path, not a tight loop). `settle`
 * runs untimed before each batch: the client's flush, so that its write to the store lands in no other row's time
 * (its cost is reported on its own).
 */
function servedSubject<C>(
  name: string,
  shape: (i: number) => C,
  evaluate: (context: C) => boolean,
  settle?: () => Promise<void>,
): Subject {
  let contexts: C[] = [];
  return {
    name,
    async prepare(offset, count) {
      await settle?.();
      contexts = Array.from({ length: count }, (_, i) => shape(offset + i));
    },
    async run() {
      let enabled = 0;
      for (let i = 0; i < contexts.length; i++) {
        if (evaluate(contexts[i]!)) enabled++;
        if (i % TURN_EVERY === TURN_EVERY - 1) await turn();
      }
      return enabled;
    },
  };
}

// ---------------------------------------------------------------- report helpers

const ENGINE = '@flagmount/engine';
const FLAGD = '@openfeature/flagd-core';
const CLIENT_TRACKED = 'flags.client.isEnabled (analytics on)';
const CLIENT_UNTRACKED = 'flags.client.isEnabled (enableTracking: false)';
const CLIENT_GET_FLAG = 'flags.client.getFlag(…).isEnabled (analytics on)';
const CLIENT_BOUND = 'flags.client.bindClient(…).isEnabled (analytics on)';
const CLIENT_REQUEST = 'req.flags.isEnabled (request-bound, analytics on)';
const HASH_ONLY = `${ENGINE}: rolloutHash alone (reference)`;

function ratioTable(measurements: Measurement[], unit: string, scale: number, operations: number, share: boolean) {
  const peers = measurements.filter((m) => !m.name.startsWith(ENGINE));
  const range = (m: Measurement) =>
    `${formatNumber(Math.min(...m.samples) / scale)}–${formatNumber(Math.max(...m.samples) / scale)}`;
  const fastestPeer = Math.min(...peers.map((m) => m.median));
  const rows: Cell[][] = [...measurements]
    .sort((a, b) => a.median - b.median)
    .map((m) => [
      m.name,
      m.median / scale,
      range(m),
      m.wallMedian / scale,
      m.name === HASH_ONLY ? null : `${(m.median / fastestPeer).toFixed(2)}×`,
      ...(share ? [`${((100 * m.checksum) / operations).toFixed(1)}%`] : []),
    ]);
  const columns = ['engine', `${unit} (CPU, median)`, 'range over rounds', `${unit} (wall)`, '× fastest peer'];
  return { columns: share ? [...columns, 'enabled'] : columns, rows };
}

/** The client table: ratios against flagd-core measured with the same turns. */
function servedTable(measurements: Measurement[], operations: number) {
  const flagdMedian = measurements.find((m) => m.name === FLAGD)!.median;
  const rows: Cell[][] = [...measurements]
    .sort((a, b) => a.median - b.median)
    .map((m) => [m.name, m.median, m.wallMedian, `${(m.median / flagdMedian).toFixed(2)}×`, `${((100 * m.checksum) / operations).toFixed(1)}%`]);
  return { columns: ['path', 'ns/call (CPU, median)', 'ns/call (wall)', '× flagd-core', 'enabled'], rows };
}

/** The floor under Flagmount's number: Reflag's rollout hash of each bench input, nothing else. */
function hashOnly(): Subject {
  let inputs: string[] = [];
  return {
    name: HASH_ONLY,
    prepare(offset, count) {
      inputs = ids.slice(offset, offset + count).map((id) => `${FLAG}.${id}`);
    },
    run() {
      let below = 0;
      for (let i = 0; i < inputs.length; i++) if (rolloutHash(inputs[i]!) < 50_000) below++;
      return below;
    },
  };
}

// ---------------------------------------------------------------- the bench

export default async function run(): Promise<BenchResult> {
  const flagmount = compileSnapshot({ flagStateVersion: 1, flags: [flagmountFlag(FLAG)] });
  const reflag = reflagEvaluator(FLAG);
  const flagdCore = flagd([FLAG]);
  const growthbook = growthbookClient(FLAG);
  const unleashClient = await unleash(FLAG);
  const ld = await launchDarkly([FLAG]);

  const single: Subject[] = [
    syncSubject(ENGINE, sharedContext, (c) => flagmount.evaluate(FLAG, c)!.isEnabled),
    syncSubject('@reflag/flag-evaluation', sharedContext, (c) => reflag(c, FLAG).value === true),
    syncSubject(
      '@openfeature/flagd-core',
      sharedContext,
      (c) => flagdCore.resolveBooleanEvaluation(FLAG, false, c, silentLogger).value,
    ),
    syncSubject(
      '@growthbook/growthbook',
      (i) => ({ attributes: { id: ids[i]!, company: { plan: plans[i]! } } }),
      (c) => growthbook.isOn(FLAG, c),
    ),
    syncSubject(
      'unleash-client',
      (i) => ({ userId: ids[i]!, properties: { companyPlan: plans[i]! } }),
      (c) => unleashClient.isEnabled(FLAG, c),
    ),
    subject<LDContext>(
      '@launchdarkly/node-server-sdk',
      (i) => ({ kind: 'multi', user: { key: ids[i]! }, company: { key: `company-${plans[i]}`, plan: plans[i]! } }),
      (c) => ld.boolVariation(FLAG, c, false),
    ),
    hashOnly(),
  ];
  // 'sha-ni' when the optional native addon loaded, 'js' otherwise (or with FLAGMOUNT_NATIVE_HASH=0).
  const hashImplementation = rolloutHashImplementation();
  console.log(`rollout hash: ${hashImplementation}`);
  console.log(`single flag: ${ROUNDS} interleaved rounds of ${BATCH.toLocaleString()} contexts per engine…`);
  const perEval = await interleave(single, {
    rounds: ROUNDS,
    batch: BATCH,
    warmup: WARMUP,
    onRound: (r) => process.stdout.write(`  round ${r + 1}/${ROUNDS}\r`),
  });

  // The host's path: the in-process client, analytics on (the default), beside flagd-core and the bare engine,
  // all with the same event-loop turns.
  // One instance per tracked path: each path meets users its client has never seen (a client that already counted a
  // user this minute only looks the check up, which would flatter whichever path runs second in a round).
  const instances = await Promise.all([0, 1, 2, 3, 4].map(() => flagmountWithFlag(FLAG)));
  const [tracked, untrackedClient, gotFlag, bound] = instances.map((f) => f.client) as [
    FlagmountClient,
    FlagmountClient,
    FlagmountClient,
    FlagmountClient,
  ];
  const binder = requestBinder<FlagContext>(instances[4]!, { context: (c) => c });
  // Written as a host writes it (a literal): a spread copy plus a member makes a slower object shape for every engine.
  const untracked = (i: number) => ({ user: { id: ids[i]! }, company: { plan: plans[i]! }, enableTracking: false });
  let flushes = 0;
  let flushCpuMs = 0;
  let flushedRows = 0;
  const settleOf = (index: number) => async () => {
    const rows = instances[index]!.stats().client.pendingRows;
    if (rows === 0) return;
    const cpu = process.cpuUsage();
    await instances[index]!.client.flush();
    const used = process.cpuUsage(cpu);
    flushes++;
    flushedRows += rows;
    flushCpuMs += (used.user + used.system) / 1000;
  };
  // Before every batch, of any row, every client flushes (untimed): a client's one-second flush timer, armed by its
  // own batch, would otherwise fire in the middle of whichever row runs next and bill it for that client's writes.
  const settle = async () => {
    for (let index = 0; index < instances.length; index++) await settleOf(index)();
  };
  // The last object each of these paths made stays alive. The full collection before every batch would otherwise
  // find no live ClientFlag, bound client or RequestFlags, drop their hidden classes and with them the path's
  // optimised code (V8's "weak objects" deopt): the path would recompile at the start of each batch, which a server
  // with requests in flight never does.
  const kept: { flag?: unknown; bound?: unknown; request?: unknown } = {};
  const served: Subject[] = [
    servedSubject(FLAGD, sharedContext, (c) => flagdCore.resolveBooleanEvaluation(FLAG, false, c, silentLogger).value, settle),
    servedSubject(ENGINE, sharedContext, (c) => flagmount.evaluate(FLAG, c)!.isEnabled, settle),
    servedSubject(CLIENT_TRACKED, sharedContext, (c) => tracked.isEnabled(FLAG, c), settle),
    servedSubject(CLIENT_UNTRACKED, untracked, (c) => untrackedClient.isEnabled(FLAG, c), settle),
    servedSubject(CLIENT_GET_FLAG, sharedContext, (c) => (kept.flag = gotFlag.getFlag(c, FLAG)).isEnabled, settle),
    servedSubject(CLIENT_BOUND, sharedContext, (c) => (kept.bound = bound.bindClient(c)).isEnabled(FLAG), settle),
    // The request-bound client as an adapter makes it: one RequestFlags per request, one flag read.
    servedSubject(CLIENT_REQUEST, sharedContext, (c) => (kept.request = binder.bind(c) as RequestFlags).isEnabled(FLAG), settle),
  ];
  console.log(`\nin-process client: ${SERVED_ROUNDS} interleaved rounds of ${SERVED_BATCH.toLocaleString()} contexts, a turn every ${TURN_EVERY}…`);
  const perServed = await interleave(served, {
    rounds: SERVED_ROUNDS,
    batch: SERVED_BATCH,
    warmup: WARMUP,
    onRound: (r) => process.stdout.write(`  round ${r + 1}/${SERVED_ROUNDS}\r`),
  });
  const clientStats = { checksCounted: 0, checksDropped: 0, contextUpdatesDropped: 0 };
  for (const [index, instance] of instances.entries()) {
    await settleOf(index)();
    const stats = instance.stats().client;
    clientStats.checksCounted += stats.checksCounted;
    clientStats.checksDropped += stats.checksDropped;
    clientStats.contextUpdatesDropped += stats.contextUpdatesDropped;
    await instance.close();
  }

  // 50 flags for one context.
  const keys = Array.from({ length: ALL_FLAGS }, (_, i) => `flag-${i}`);
  const LAST = keys.at(-1)!;
  const flagmountAll = compileSnapshot({ flagStateVersion: 1, flags: keys.map(flagmountFlag) });
  const reflagAll = keys.map((key) => ({ key, evaluate: reflagEvaluator(key) }));
  const flagdAll = flagd(keys);
  const ldAll = await launchDarkly(keys);
  // Not enterprise, so every flag evaluates both rules and hashes.
  const one: Shared = { user: { id: 'user-42' }, company: { plan: 'free' } };
  const ldOne: LDContext = {
    kind: 'multi',
    user: { key: 'user-42' },
    company: { key: 'company-free', plan: 'free' },
  };
  const repeat = (name: string, call: () => number): Subject => ({
    name,
    run(_offset, count) {
      let sum = 0;
      for (let i = 0; i < count; i++) sum += call();
      return sum;
    },
  });
  // A different non-enterprise user on every call: no rollout result can be reused.
  const newUsers = ids.filter((_, i) => plans[i] !== 'enterprise').slice(0, ALL_BATCH * ALL_ROUNDS + 500);
  const newUserContexts = newUsers.map((id): Shared => ({ user: { id }, company: { plan: 'free' } }));
  let nextUser = 0;
  const all: Subject[] = [
    // The checksum reads one entry: Object.keys on the result would cost as much as building it.
    repeat(`${ENGINE} (same context each call)`, () => (flagmountAll.evaluateAll(one)[LAST]!.isEnabled ? 1 : 0)),
    repeat(`${ENGINE} (new user each call)`, () => {
      const context = newUserContexts[nextUser++ % newUserContexts.length]!;
      return flagmountAll.evaluateAll(context)[LAST]!.isEnabled ? 1 : 0;
    }),
    repeat('@reflag/flag-evaluation (loop, as node-sdk getFlags)', () => {
      let n = 0;
      for (const flag of reflagAll) if (flag.evaluate(one, flag.key).value !== undefined) n++;
      return n;
    }),
    repeat('@openfeature/flagd-core (resolveAll)', () => flagdAll.resolveAll(one, silentLogger).length),
    {
      name: '@launchdarkly/node-server-sdk (allFlagsState)',
      async run(_offset, count) {
        let sum = 0;
        for (let i = 0; i < count; i++) {
          sum += Object.keys((await ldAll.allFlagsState(ldOne)).allValues()).length;
        }
        return sum;
      },
    },
  ];
  console.log(`\n${ALL_FLAGS} flags: ${ALL_ROUNDS} interleaved rounds of ${ALL_BATCH.toLocaleString()} calls…`);
  const perAll = await interleave(all, { rounds: ALL_ROUNDS, batch: ALL_BATCH, warmup: 500, offsetOf: () => 0 });

  ld.close();
  ldAll.close();
  unleashClient.destroy();
  growthbook.destroy();

  const engineMedian = perEval.find((m) => m.name === ENGINE)!.median;
  const hashMedian = perEval.find((m) => m.name === HASH_ONLY)!.median;
  const flagdMedian = perEval.find((m) => m.name === '@openfeature/flagd-core')!.median;
  const servedMedian = (name: string) => perServed.find((m) => m.name === name)!.median;
  const servedFlagd = servedMedian(FLAGD);
  const ratio = (name: string) => (servedMedian(name) / servedFlagd).toFixed(2);
  const engineSame = perAll.find((m) => m.name === `${ENGINE} (same context each call)`)!.median;
  const engineNew = perAll.find((m) => m.name === `${ENGINE} (new user each call)`)!.median;

  return {
    title: 'Flag evaluation, in process',
    workload: [
      'One flag in every engine: rule 1 `company.plan IS enterprise`, rule 2 a 50% rollout on the user id.',
      `${CONTEXTS.toLocaleString()} contexts with distinct user ids (10% enterprise), evaluated once each:`,
      `${ROUNDS} rounds of ${BATCH.toLocaleString()} per engine, engines interleaved in rotating order after`,
      `${WARMUP.toLocaleString()} warm-up evaluations; contexts are built in each engine's own shape before its`,
      `timed batch. Then ${ALL_FLAGS} such flags (distinct keys) for one non-enterprise context, through each`,
      `engine's all-flags call: ${ALL_ROUNDS} rounds of ${ALL_BATCH.toLocaleString()} calls. Medians of CPU time`,
      '(user + system of the process), which a busy shared machine inflates less than wall time. The in-process',
      `client's paths: the same ${CONTEXTS.toLocaleString()} contexts in ${SERVED_ROUNDS} rounds of ${SERVED_BATCH.toLocaleString()}.`,
    ].join(' '),
    tables: [
      { title: 'One flag, 1M contexts', ...ratioTable(perEval, 'ns/eval', 1, CONTEXTS, true) },
      { title: `${ALL_FLAGS} flags, one context`, ...ratioTable(perAll, 'µs per call', 1000, 0, false) },
      { title: 'The host\'s path: in-process client, 1M distinct users, a turn every 1000 calls', ...servedTable(perServed, CONTEXTS) },
    ],
    notes: [
      [
        `In-process client vs flagd-core (same turns): isEnabled with analytics ${ratio(CLIENT_TRACKED)}× (target ≤ 1.0×),`,
        `with enableTracking: false ${ratio(CLIENT_UNTRACKED)}× (target ≤ 0.5×), getFlag().isEnabled ${ratio(CLIENT_GET_FLAG)}×,`,
        `bindClient(context).isEnabled (a bound client made per call) ${ratio(CLIENT_BOUND)}×, req.flags.isEnabled (a`,
        `RequestFlags bound per call, as an adapter does per request) ${ratio(CLIENT_REQUEST)}×. Over the run the clients`,
        `counted ${clientStats.checksCounted.toLocaleString()} checks and dropped ${clientStats.checksDropped.toLocaleString()}`,
        `(and ${clientStats.contextUpdatesDropped.toLocaleString()} user updates) that their bounded buffers could not hold.`,
        `Their flushes (untimed above, before each client batch: ${flushes} of them, ${flushedRows.toLocaleString()} rows)`,
        `took ${(flushCpuMs / Math.max(1, flushes)).toFixed(0)} ms of CPU each through the ingestion path to a store that drops them (see bench/peers/analytics-discarding.ts), ${((1e6 * flushCpuMs) / Math.max(1, flushedRows)).toFixed(0)} ns a row;`,
        'a host pays that at most once a second, for at most the buffer\'s bound of rows.',
      ],
      [
        `Flagmount vs flagd-core: ${(engineMedian / flagdMedian).toFixed(2)}× its ns/eval (target ≤ 0.5×). The`,
        `reference row hashes the same inputs and does nothing else: ${hashMedian.toFixed(0)} ns, or`,
        `${((100 * hashMedian) / engineMedian).toFixed(0)}% of Flagmount’s evaluation. That SHA-256 is Reflag’s`,
        'rollout hash, required for parity with its SDKs (flagd-core buckets with MurmurHash3); its compression',
        hashImplementation === 'sha-ni' ? 'ran on SHA-NI (the optional native addon).' : 'ran in JavaScript.',
      ],
      [
        `Flagmount, ${ALL_FLAGS} flags for one context: ${(engineSame / 1000).toFixed(2)} µs (target < 10 µs);`,
        `${(engineNew / 1000).toFixed(2)} µs when every call brings a user not seen before. Each rollout prefix`,
        'remembers its last input, so the same user evaluated again skips the hash, and a new user is hashed for',
        'all rollouts on a field in one native call when the addon is there. A Map/LRU cache of hashes was',
        'measured and rejected: slower than hashing once users stop repeating.',
      ],
      [
        'Each engine returns its own detail object (Flagmount: rule results, errors, missing fields); the',
        'enabled share checks that every engine runs the same flag (≈ 10% + 90% × 50%).',
      ],
      [
        'LaunchDarkly has only a Promise API, so its loop awaits each evaluation; that microtask is part of its',
        'cost. Unleash runs from a bootstrap with polling off, LaunchDarkly from TestData with events off: no',
        'network.',
      ],
      [
        'GrowthBook and Unleash have no all-flags evaluation call, so they are absent from the second table;',
        'the Reflag library has none either, and its row is the loop its node SDK runs in getFlags.',
      ],
    ].map((lines) => lines.join(' ')),
    data: { perEval, perAll, perServed, clientStats, hashImplementation },
  };
}
