import { join } from 'node:path';
import type { RequestSpec } from '../load/index.js';
import { flagmountEvaluatePath, unleashFrontendPath, type BenchContext } from '../peers/contexts.js';
import type { MixFlag } from '../peers/flag-mix.js';
import { seedFlagmountHttp } from '../peers/flagmount-http-seed.js';
import { deterministicOn, expectedOnKeys, sameKeys } from '../peers/parity.js';
import { freshSchema } from '../peers/pg.js';
import { seedUnleash } from '../peers/unleash-seed.js';
import { spawnChild, type Child } from './child.js';
import { BARE_PREFIX, BENCH_KEYS, PREFIX, stableHeaders, type BareResponse, type Framework, type HostConfig } from './host-config.js';

/** One server under load in the HTTP evaluate-all benchmark, running in its own child process. */
export interface System {
  id: string;
  label: string;
  /** `inprocess`: the ceiling's bare route inside the Flagmount host app (same process, same app). */
  kind: 'unleash' | 'flagmount' | 'ceiling' | 'inprocess' | 'spin';
  framework?: Framework;
  origin: string;
  requests: RequestSpec[];
  /** Body size of one answer (the first context's). */
  responseBytes: number;
  child: Child;
}

const HOST = new URL('./host.ts', import.meta.url);
const UNLEASH = new URL('./unleash-host.ts', import.meta.url);
export const UNLEASH_SCHEMA = 'unleash_bench';

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(url, { headers });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Parity on the deterministic flags for a few contexts: both systems must serve the same flags. */
async function checkParity(
  name: string,
  flags: MixFlag[],
  contexts: BenchContext[],
  enabledKeys: (context: BenchContext) => Promise<string[]>,
): Promise<string | undefined> {
  for (const context of contexts.slice(0, 12)) {
    const got = deterministicOn(flags, await enabledKeys(context));
    const want = expectedOnKeys(flags, context);
    if (!sameKeys(got, want)) return `${name} for ${context.user.id}: got [${got.join(',')}], want [${want.join(',')}]`;
  }
  return undefined;
}

export async function startUnleash(flags: MixFlag[], contexts: BenchContext[]): Promise<System> {
  await freshSchema(UNLEASH_SCHEMA);
  const child = spawnChild(UNLEASH, { args: [UNLEASH_SCHEMA], env: { SEND_TELEMETRY: 'false', CHECK_VERSION: 'false' } });
  try {
    const ready = await child.message<{ type: 'ready'; port: number; adminToken: string; frontendToken: string }>('ready', 240_000);
    const origin = `http://127.0.0.1:${ready.port}`;
    const health = await get(`${origin}/health`);
    if (health.status !== 200) throw new Error(`Unleash /health → ${health.status}`);
    await seedUnleash({ origin, adminToken: ready.adminToken }, flags);
    const headers = { authorization: ready.frontendToken };
    const enabled = async (context: BenchContext) => {
      const r = await get(`${origin}${unleashFrontendPath(context)}`, headers);
      if (r.status !== 200) throw new Error(`Unleash frontend API → ${r.status} ${r.text.slice(0, 300)}`);
      return (JSON.parse(r.text) as { toggles: Array<{ name: string; enabled: boolean }> }).toggles.filter((t) => t.enabled).map((t) => t.name);
    };
    // Unleash's frontend cache refreshes on its own schedule after admin changes: wait until it serves the flags.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const problem = await checkParity('Unleash', flags, contexts, enabled);
      if (!problem) break;
      if (Date.now() > deadline) throw new Error(`Unleash never served the configured flags: ${problem}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const sample = await get(`${origin}${unleashFrontendPath(contexts[0]!)}`, headers);
    return {
      id: 'unleash',
      label: 'Unleash 7.5.1 frontend API',
      kind: 'unleash',
      origin,
      requests: contexts.map((c) => ({ method: 'GET', path: unleashFrontendPath(c), headers })),
      responseBytes: Buffer.byteLength(sample.text),
      child,
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

export interface FlagmountSystem extends System {
  /** The first context's answer, replayed by the ceiling route. */
  sample: BareResponse;
  samplePath: string;
}

export async function startFlagmount(framework: Framework, flags: MixFlag[], contexts: BenchContext[], dir: string): Promise<FlagmountSystem> {
  const config: HostConfig = {
    mode: 'flagmount',
    framework,
    store: { kind: 'sqlite', filename: join(dir, `evaluate-${framework}.db`) },
    ...BENCH_KEYS,
    barePath: `${BARE_PREFIX}/features/evaluated`,
  };
  const child = spawnChild(HOST, { args: [JSON.stringify(config)] });
  try {
    const ready = await child.message<{ type: 'ready'; port: number; appId: string; environments: Array<{ id: string; name: string }> }>('ready');
    const origin = `http://127.0.0.1:${ready.port}`;
    const env = ready.environments.find((e) => e.name === 'Development');
    if (!env) throw new Error('bootstrap created no Development environment');
    await seedFlagmountHttp({ base: `${origin}${PREFIX}`, managementKey: BENCH_KEYS.managementKey, appId: ready.appId, envId: env.id }, flags);
    const paths = contexts.map((c) => flagmountEvaluatePath(PREFIX, BENCH_KEYS.publishableKey, c));
    const answer = async (context: BenchContext) => {
      const r = await get(`${origin}${flagmountEvaluatePath(PREFIX, BENCH_KEYS.publishableKey, context)}`);
      if (r.status !== 200) throw new Error(`Flagmount (${framework}) → ${r.status} ${r.text.slice(0, 300)}`);
      return r;
    };
    const enabled = async (context: BenchContext) => {
      const body = JSON.parse((await answer(context)).text) as { features: Record<string, { isEnabled: boolean }> };
      if (Object.keys(body.features).length !== flags.length) throw new Error(`Flagmount (${framework}) served ${Object.keys(body.features).length} flags`);
      return Object.entries(body.features).filter(([, f]) => f.isEnabled).map(([k]) => k);
    };
    const problem = await checkParity(`Flagmount (${framework})`, flags, contexts, enabled);
    if (problem) throw new Error(problem);
    const first = await answer(contexts[0]!);
    return {
      id: `flagmount-${framework}`,
      label: `Flagmount on ${framework}`,
      kind: 'flagmount',
      framework,
      origin,
      requests: paths.map((path) => ({ method: 'GET', path })),
      responseBytes: Buffer.byteLength(first.text),
      child,
      sample: { status: first.status, headers: stableHeaders(first.headers), body: first.text },
      samplePath: `${PREFIX}/features/evaluated`,
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/**
 * The framework's ceiling: a bare route answering Flagmount's bytes, hit with the very same requests. With
 * `spinMicros`, the same route after a busy loop of that many microseconds: a request path of known CPU cost, which
 * shows what share of the ceiling that much work per request leaves on this machine.
 */
export async function startCeiling(flagmount: FlagmountSystem, spinMicros = 0): Promise<System> {
  const framework = flagmount.framework!;
  const config: HostConfig = { mode: 'bare', framework, path: flagmount.samplePath, response: flagmount.sample, spinMicros };
  const child = spawnChild(HOST, { args: [JSON.stringify(config)] });
  try {
    const ready = await child.message<{ type: 'ready'; port: number }>('ready');
    const origin = `http://127.0.0.1:${ready.port}`;
    const check = await get(`${origin}${flagmount.requests[0]!.path}`);
    if (check.status !== flagmount.sample.status || check.text !== flagmount.sample.body) throw new Error(`ceiling (${framework}) answers other bytes`);
    return {
      ...(spinMicros > 0
        ? { id: `spin-${framework}`, label: `Bare ${framework} route + ${spinMicros} µs busy loop`, kind: 'spin' as const }
        : { id: `ceiling-${framework}`, label: `Ceiling: bare ${framework} route`, kind: 'ceiling' as const }),
      framework,
      origin,
      requests: flagmount.requests,
      responseBytes: Buffer.byteLength(check.text),
      child,
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/**
 * The ceiling's bare route inside Flagmount's host app, answering Flagmount's bytes to the same requests (at
 * BARE_PREFIX): what the framework costs in that process, with nothing of Flagmount's in the request path. Between
 * it and the ceiling lies what running next to Flagmount costs (a larger heap, code and caches that other requests
 * used); between it and Flagmount, Flagmount's own request path.
 */
export async function startInProcessBare(flagmount: FlagmountSystem): Promise<System> {
  const framework = flagmount.framework!;
  flagmount.child.send({ type: 'bare-answer', response: flagmount.sample });
  await flagmount.child.message('bare-ready');
  const requests = flagmount.requests.map((r) => ({ ...r, path: BARE_PREFIX + r.path.slice(PREFIX.length) }));
  const check = await get(`${flagmount.origin}${requests[0]!.path}`);
  if (check.status !== flagmount.sample.status || check.text !== flagmount.sample.body) throw new Error(`in-process bare route (${framework}) answers other bytes`);
  return {
    id: `inprocess-${framework}`,
    label: `Bare ${framework} route in Flagmount's process`,
    kind: 'inprocess',
    framework,
    origin: flagmount.origin,
    requests,
    responseBytes: Buffer.byteLength(check.text),
    child: flagmount.child,
  };
}
