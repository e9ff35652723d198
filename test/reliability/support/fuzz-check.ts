import { validateHeaderName, validateHeaderValue } from 'node:http';
import { bodyText, type CoreHandler, type CoreRequest, type Flagmount, type RouteDefinition, type Storage } from '@flagmount/core';
import fc from 'fast-check';
import { loadDashboardAssets } from '../../../packages/core/src/dashboard/assets.js';
import { silentLogger } from '../../../packages/core/src/logger.js';
import { errorBodyProblems, ofrepFailureProblems, statusCodeProblems } from './error-body.js';
import { describeRequest, requestArb, type FuzzFixture } from './fuzz-requests.js';

/** What the invariants look at: a response as the client sees it. */
export interface Observed {
  status: number;
  contentType: string | null | undefined;
  text: string | undefined;
  headers: Record<string, string>;
}

/** Where generated requests go: the core handler directly, or a real adapter over HTTP. */
export interface FuzzTarget {
  name: string;
  /** `undefined` when the request cannot be sent this way (it then counts as skipped). */
  send(request: CoreRequest): Promise<Observed | undefined>;
  /** The whole store, serialised: compared around every rejected request. */
  dump(): Promise<string>;
}

/** What a target dumps: the store, and the ingestion writer whose queued writes land in it. */
export interface DumpSource {
  storage: Storage;
  ingestion: { flush(): Promise<void> };
}

/**
 * The store once every queued write has landed: an OFREP evaluation records its checks after it answers, and such a
 * late write of an accepted request must not be taken for a change made by the next, rejected one.
 */
export const dumpText = async (source: DumpSource) => {
  await source.ingestion.flush();
  return JSON.stringify(await source.storage.dump());
};

/** Calls the handler in-process; a stream (SSE) is opened on a sink and released at once. */
export function handlerTarget(handler: CoreHandler, source: DumpSource, name = 'handler'): FuzzTarget {
  return {
    name,
    async send(request) {
      const response = await handler(request);
      if (response.stream) {
        const release = response.stream.open({ write: () => {}, end: () => {} });
        release();
      }
      const contentType = response.headers['content-type'];
      return { status: response.status, contentType, text: bodyText(response), headers: response.headers };
    },
    dump: () => dumpText(source),
  };
}

/** Headers fetch refuses or rewrites; such a generated header is left out over HTTP. */
const FORBIDDEN = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

/** Whether every `%xx` sequence of the path decodes (UTF-8). */
export function pathDecodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Requests the host framework answers itself, before any route (so before Flagmount) runs — not Flagmount's to
 * shape. Fastify answers a path with a broken percent-encoding with its own 400 body (FST_ERR_BAD_URL) unless the
 * host sets `frameworkErrors` when it creates its instance, which a plugin cannot do.
 */
export const HOST_ANSWERS: Record<string, (request: CoreRequest) => boolean> = {
  fastify: (request) => !pathDecodes(request.path),
};

/** Sends the request through a host app with Flagmount mounted at `baseUrl` (`http://127.0.0.1:P/flags`). */
export function httpTarget(baseUrl: string, source: DumpSource, name: string): FuzzTarget {
  const prefix = new URL(baseUrl).pathname;
  return {
    name,
    async send(request) {
      if (HOST_ANSWERS[name]?.(request)) return undefined;
      const search = request.query.length ? `?${new URLSearchParams(request.query.map(([k, v]) => [k, v])).toString()}` : '';
      let url: URL;
      try {
        url = new URL(baseUrl + request.path + search);
      } catch {
        return undefined;
      }
      // `..` segments and the like are resolved by the URL parser and may leave the mount: that is the host's.
      if (!url.pathname.startsWith(`${prefix}/`)) return undefined;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined || FORBIDDEN.has(name)) continue;
        if (!/^[\t\x20-\x7e]*$/.test(value)) continue;
        headers[name] = value;
      }
      // Past the host's header limit (64 KiB in the harness) Node answers 431 before any framework or Flagmount runs.
      const headerBytes = Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, url.href.length);
      if (headerBytes > 60 * 1024) return undefined;
      let body: string | undefined;
      if (request.body.kind === 'raw') body = request.body.text;
      else if (request.body.kind === 'parsed') body = JSON.stringify(request.body.value);
      if (request.method === 'GET' || request.method === 'HEAD') body = undefined;
      const controller = new AbortController();
      const res = await fetch(url, {
        method: request.method,
        headers,
        redirect: 'manual',
        signal: controller.signal,
        ...(body !== undefined ? { body } : {}),
      });
      const contentType = res.headers.get('content-type');
      let text: string | undefined;
      if (contentType?.startsWith('text/event-stream')) controller.abort();
      else text = await res.text();
      const responseHeaders: Record<string, string> = {};
      res.headers.forEach((value, name) => (responseHeaders[name] = value));
      return { status: res.status, contentType, text, headers: responseHeaders };
    },
    async dump() {
      return dumpText(source);
    },
  };
}

/** The invariants for one response; `rejected` says whether the dump must be unchanged. */
export function responseProblems(request: CoreRequest, observed: Observed, route?: RouteDefinition): string[] {
  const problems: string[] = [];
  if (observed.status >= 500) problems.push(`answered ${observed.status} (no 5xx allowed): ${observed.text?.slice(0, 300)}`);
  if (observed.status >= 400 && request.method !== 'HEAD') {
    const ofrep = route?.path.startsWith('/ofrep/') ? ofrepFailureProblems(observed.status, observed.text) : undefined;
    if (ofrep) problems.push(...ofrep);
    else {
      problems.push(...errorBodyProblems(observed.status, observed.contentType, observed.text));
      problems.push(...statusCodeProblems(observed.status, observed.text));
    }
  }
  for (const [name, value] of Object.entries(observed.headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      problems.push(`response header ${name} would be refused by Node`);
    }
  }
  return problems;
}

export interface FuzzStats {
  runs: number;
  skipped: number;
  rejected: number;
  accepted: number;
  statuses: Record<number, number>;
}

export const emptyStats = (): FuzzStats => ({ runs: 0, skipped: 0, rejected: 0, accepted: 0, statuses: {} });

/**
 * The property for one route: no 5xx, the spec's error body on every 4xx, and an unchanged store after every
 * rejected request (accepted requests may change it: the baseline moves with them).
 */
export function routeProperty(route: RouteDefinition, fixture: FuzzFixture, target: FuzzTarget, stats: FuzzStats) {
  let baseline: string | undefined;
  return fc.asyncProperty(requestArb(route, fixture), async ({ request }) => {
    baseline ??= await target.dump();
    stats.runs++;
    let observed: Observed | undefined;
    try {
      observed = await target.send(request);
    } catch (error) {
      throw new Error(`${target.name}: request failed (${String(error)})\n${describeRequest(request)}`);
    }
    if (!observed) {
      stats.skipped++;
      return;
    }
    stats.statuses[observed.status] = (stats.statuses[observed.status] ?? 0) + 1;
    const problems = responseProblems(request, observed, route);
    const after = await target.dump();
    if (observed.status >= 400) {
      stats.rejected++;
      if (after !== baseline) problems.push(`the store changed although the request was rejected with ${observed.status}`);
    } else {
      stats.accepted++;
    }
    baseline = after;
    if (problems.length) throw new Error(`${target.name} ${route.method} ${route.path}:\n- ${problems.join('\n- ')}\n${describeRequest(request)}`);
  });
}

/** Runs the property; resolves the failure message (with fast-check's seed and path), or undefined. */
export async function fuzzRoute(
  route: RouteDefinition,
  fixture: FuzzFixture,
  target: FuzzTarget,
  numRuns: number,
  stats = emptyStats(),
): Promise<string | undefined> {
  const seed = process.env['FLAGMOUNT_FUZZ_SEED'] ? Number(process.env['FLAGMOUNT_FUZZ_SEED']) : undefined;
  const result = await fc.check(routeProperty(route, fixture, target, stats), {
    numRuns,
    // Shrinking replays against a store the earlier runs changed; a few steps are enough to get a readable case.
    endOnFailure: false,
    maxSkipsPerRun: 100,
    ...(seed !== undefined ? { seed } : {}),
  });
  if (!result.failed) return undefined;
  const instance = result.errorInstance;
  const error =
    instance instanceof Error
      ? instance.message.includes('\n') ? instance.message : (instance.stack ?? instance.message).split('\n').slice(0, 12).join('\n')
      : String(instance);
  return `${error}\n(seed ${result.seed}, path "${result.counterexamplePath}"; replay with FLAGMOUNT_FUZZ_SEED=${result.seed})`;
}

/**
 * Real ids for every `{param}` of the route table: a flag, a user and a company with stored attributes, a member,
 * a management key, the bootstrap stages and segment, an asset name. Created through the handler itself.
 */
export async function createFixture(instance: Flagmount): Promise<FuzzFixture> {
  const bootstrap = instance.bootstrap!;
  const managementKey = bootstrap.managementKey!;
  const [dev] = bootstrap.environments;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await instance.handler({
      method,
      path,
      query: [],
      headers: { authorization: `Bearer ${managementKey}`, 'content-type': 'application/json' },
      body: body === undefined ? { kind: 'none' } : { kind: 'raw', text: JSON.stringify(body) },
    });
    if (response.status !== 200) throw new Error(`fixture ${method} ${path}: ${response.status} ${bodyText(response)}`);
    return JSON.parse(bodyText(response)!) as any;
  };
  const appId = bootstrap.appId;
  const envId = dev!.id;
  const { flag } = await call('POST', `/apps/${appId}/flags`, { key: 'fuzz-flag', name: 'Fuzz flag' });
  await call('PUT', `/apps/${appId}/envs/${envId}/users/u1`, { name: 'User One', attributes: { plan: 'pro', roles: ['a'] } });
  await call('PUT', `/apps/${appId}/envs/${envId}/companies/c1`, { name: 'Company One', attributes: { tier: 'gold' } });
  await call('PUT', `/members/m1`, { name: 'Member One', email: 'm1@example.com' });
  const { key } = await call('POST', '/keys', { name: 'fuzz', scopes: ['read'] });
  const app = await call('GET', `/apps/${appId}`);
  const [file] = [...(await loadDashboardAssets(silentLogger)).files.keys()];
  return {
    ids: {
      appId,
      envId,
      flagId: flag.id,
      flagKey: 'fuzz-flag',
      key: 'fuzz-flag',
      userId: 'u1',
      companyId: 'c1',
      memberId: 'm1',
      keyId: key.id,
      stageId: app.stages[0].id,
      segmentId: app.segments[0].id,
      file: file ?? 'app.js',
    },
    keys: { management: managementKey, secret: dev!.secretKey, publishable: dev!.publishableKey },
  };
}
