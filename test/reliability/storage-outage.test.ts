import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StorageUnavailableError, type Storage } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type ApiResponse, type Harness } from '../http/support/harness.js';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';
import { controllableStorage, type StorageControl } from '../support/storage-wrappers.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { errorBodyProblems } from './support/error-body.js';

/**
 * Storage outage (issue 10): the database goes away while the app serves. Flag evaluation (HTTP and the in-process
 * client) keeps answering from the last snapshot; writes answer 503 with the error body and leave nothing
 * half-applied; service resumes on its own when the database returns.
 *
 * SQLite: the file's store is wrapped so that every call fails with StorageUnavailableError (an open SQLite file
 * cannot be taken away from a process that holds it: moving or chmod-ing it changes nothing for the open handle,
 * and root ignores permissions). Postgres: the store talks through a TCP proxy; the outage terminates the pool's
 * backends (pg_terminate_backend) and refuses new connections until the proxy listens again.
 */

const pgAvailable = await requirePostgres('storage outage');
const schemas = new SchemaPool(postgresUrl);
const tmp = mkdtempSync(join(tmpdir(), 'flagmount-outage-'));
afterAll(async () => {
  await schemas.dropAll();
  rmSync(tmp, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

interface Backend {
  name: string;
  storage: Storage;
  /** The same store, wrapped for mid-transaction failures and the broken-build self-checks. */
  control: StorageControl;
  goAway(): Promise<void>;
  comeBack(): Promise<void>;
  close(): Promise<void>;
  /** Postgres: client ports of the store's connections, as `pg_stat_activity.client_port` shows them. */
  ports?(): number[];
}

let counter = 0;
function sqliteBackend(): Backend {
  const { storage, control } = controllableStorage(sqliteStorage({ filename: join(tmp, `outage-${counter++}.db`), pollIntervalMs: 0 }));
  return {
    name: 'sqlite',
    storage,
    control,
    goAway: async () => control.fail(new StorageUnavailableError('SQLite is unavailable: disk I/O error')),
    comeBack: async () => control.fail(undefined),
    close: async () => {},
  };
}

async function terminateBackends(ports: number[]): Promise<number> {
  if (!ports.length) return 0;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>(
      'select pg_terminate_backend(pid) as ok from pg_stat_activity where client_port = any($1::int[]) and pid <> pg_backend_pid()',
      [ports],
    );
    return rows.length;
  } finally {
    await client.end();
  }
}

async function postgresBackend(): Promise<Backend> {
  const url = new URL(postgresUrl);
  const proxy: TcpProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.port = String(proxy.port);
  const { storage, control } = controllableStorage(
    postgresStorage({
      connectionString: url.toString(),
      schema: schemas.next(),
      pool: { max: 4, connectionTimeoutMillis: 2000 },
      pollIntervalMs: 500,
      logger: quiet,
    }),
  );
  return {
    name: 'postgres',
    storage,
    control,
    async goAway() {
      await terminateBackends(proxy.upstreamPorts());
      await proxy.cut();
    },
    comeBack: () => proxy.restore(),
    close: () => proxy.close(),
    ports: () => proxy.upstreamPorts(),
  };
}

const backends: Array<{ name: string; make: () => Promise<Backend>; skip: boolean }> = [
  { name: 'sqlite', make: async () => sqliteBackend(), skip: false },
  { name: 'postgres', make: postgresBackend, skip: !pgAvailable },
];

async function start(backend: Backend): Promise<Harness> {
  return startHarness(expressFactory, {
    storage: backend.storage,
    options: { logger: quiet, waitForVersionTimeoutMs: 300 },
  });
}

const ok = (res: ApiResponse, what: string) => {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** Every flag-state write the outage must refuse, and a runtime write of each kind. */
function writes(h: Harness, tag: string, flagId: string): Array<{ name: string; send: () => Promise<ApiResponse> }> {
  const { appId } = h;
  const dev = h.envs.development;
  const sdk = { key: dev.secretKey };
  return [
    { name: 'create flag', send: () => h.request('POST', `/apps/${appId}/flags`, { body: { key: `during-${tag}`, name: 'During' } }) },
    { name: 'update flag', send: () => h.request('PATCH', `/apps/${appId}/flags/${flagId}`, { body: { description: `changed ${tag}` } }) },
    { name: 'put targeting', send: () => h.request('PUT', `/apps/${appId}/flags/steady/targeting/${dev.id}`, { body: { rules: [] } }) },
    { name: 'specific target', send: () => h.request('PATCH', `/apps/${appId}/envs/${dev.id}/users/u1/flags`, { body: { updates: [{ flagKey: 'steady', specificTargetValue: true }] } }) },
    { name: 'upsert user', send: () => h.request('PUT', `/apps/${appId}/envs/${dev.id}/users/u-${tag}`, { body: { name: 'U', attributes: { a: 1 } } }) },
    { name: 'create stage', send: () => h.request('POST', `/apps/${appId}/stages`, { body: { name: `Stage ${tag}`, color: 'red' } }) },
    { name: 'POST /event', send: () => h.request('POST', '/event', { ...sdk, body: { userId: 'u1', event: `e-${tag}` } }) },
    { name: 'POST /user', send: () => h.request('POST', '/user', { ...sdk, body: { userId: `u-${tag}`, attributes: { x: 1 } } }) },
    { name: 'POST /company', send: () => h.request('POST', '/company', { ...sdk, body: { companyId: `c-${tag}`, userId: 'u1' } }) },
    { name: 'POST /features/events', send: () => h.request('POST', '/features/events', { ...sdk, body: { action: 'check', key: 'steady', evalResult: true, evalContext: { user: { id: 'u1' } } } }) },
    { name: 'POST /bulk', send: () => h.request('POST', '/bulk', { ...sdk, body: [{ type: 'user', userId: `b-${tag}` }, { type: 'event', userId: 'u1', event: `b-${tag}` }] }) },
    { name: 'POST /feedback', send: () => h.request('POST', '/feedback', { ...sdk, body: { userId: 'u1', key: 'steady', score: 4 } }) },
  ];
}

const context = { user: { id: 'u1' }, enableTracking: false } as const;

/** What evaluation answers must keep showing: `steady` on for u1 in Development. */
async function evaluationProblems(h: Harness, waitForVersion?: number): Promise<string[]> {
  const problems: string[] = [];
  const query: Record<string, string | number> = { contextJson: JSON.stringify({ user: { id: 'u1' } }) };
  if (waitForVersion !== undefined) query['waitForVersion'] = waitForVersion;
  for (const path of ['/features/evaluated', '/features/enabled']) {
    const res = await h.request('GET', path, { key: h.envs.development.publishableKey, query });
    if (res.status !== 200) problems.push(`${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
    else if (res.body.features?.steady?.isEnabled !== true) problems.push(`${path}: steady is not on (${res.text.slice(0, 200)})`);
  }
  const features = await h.request('GET', '/features', { key: h.envs.development.secretKey });
  if (features.status !== 200) problems.push(`/features answered ${features.status}`);
  const ofrep = await h.request('POST', '/ofrep/v1/evaluate/flags/steady', { key: h.envs.development.secretKey, body: { context: { targetingKey: 'u1' } } });
  if (ofrep.status !== 200 || ofrep.body.value !== true) problems.push(`OFREP answered ${ofrep.status}: ${ofrep.text.slice(0, 200)}`);
  if (!h.instance.client.isEnabled('steady', context)) problems.push('client.isEnabled(steady) is false');
  if (!h.instance.client.getFlags(context)['steady']?.isEnabled) problems.push('client.getFlags() lost steady');
  return problems;
}

interface OutageRun {
  problems: string[];
  idleCalls?: number;
  evaluations: number;
  refusedWrites: number;
  resumedAfterMs: number | undefined;
}

/**
 * The whole story against one backend: serve, lose the database for `outageMs`, keep evaluating, refuse writes,
 * get the database back, resume without help. `resumeLimitMs` bounds the wait for the first accepted write.
 */
async function outageScenario(h: Harness, backend: Backend, outageMs = 2500, resumeLimitMs = 20_000): Promise<OutageRun> {
  const problems: string[] = [];
  const dev = h.envs.development;
  const { flag } = ok(await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'steady', name: 'Steady' } }), 'create steady');
  ok(await h.request('PUT', `/apps/${h.appId}/flags/steady/targeting/${dev.id}`, { body: { rules: [{ filter: { type: 'constant', value: true } }] } }), 'target steady');
  ok(await h.request('PUT', `/apps/${h.appId}/envs/${dev.id}/users/u1`, { body: { name: 'U1', attributes: { plan: 'pro' } } }), 'user');
  problems.push(...(await evaluationProblems(h)).map((p) => `before the outage: ${p}`));
  await h.instance.client.flush();
  const before = JSON.stringify(await h.storage.dump());
  const version = (await h.storage.environments.get(dev.id))!.flagStateVersion;

  await backend.goAway();
  // A reload attempt against the missing store (waitForVersion asks for one), then quiet: the cache must retry on
  // its timer (about once a second), not at once in a loop that would eat the host's CPU and starve its event loop.
  await h.request('GET', '/features/enabled', { key: dev.publishableKey, query: { waitForVersion: version + 1 } });
  const callsBefore = backend.control.calls;
  await sleep(1200);
  const idleCalls = backend.control.calls - callsBefore;
  if (idleCalls > 20) problems.push(`${idleCalls} store calls in 1.2 s of idle outage: something retries in a loop`);
  const until = Date.now() + outageMs;
  let evaluations = 0;
  let refusedWrites = 0;
  let round = 0;
  while (Date.now() < until || round === 0) {
    // Spans several of the snapshot cache's 1 s retries; waitForVersion makes it try to reload at once, too.
    const found = await evaluationProblems(h, round % 2 ? version + 1 : undefined);
    problems.push(...found.map((p) => `during the outage: ${p}`));
    evaluations++;
    for (const write of writes(h, `o${round}`, flag.id)) {
      const res = await write.send();
      if (res.status !== 503) problems.push(`during the outage, ${write.name} answered ${res.status}: ${res.text.slice(0, 200)}`);
      else {
        refusedWrites++;
        for (const p of errorBodyProblems(res.status, res.headers.get('content-type'), res.text)) problems.push(`${write.name}: ${p}`);
        if (res.body?.error?.code !== 'not_available') problems.push(`${write.name}: code ${res.body?.error?.code}`);
      }
    }
    await h.instance.client.track('u1', 'in-process').then(
      () => problems.push('during the outage, client.track() resolved'),
      () => refusedWrites++,
    );
    const host = await fetch(`${h.origin}/host/ping`);
    if (host.status !== 200) problems.push(`the host answered ${host.status}`);
    round++;
    await sleep(150);
  }

  await backend.comeBack();
  const comeBackAt = Date.now();
  // Nothing any refused write did is in the store (the first dump may wait for the pool to reconnect).
  let after: string | undefined;
  while (after === undefined && Date.now() - comeBackAt < resumeLimitMs) {
    after = await h.storage.dump().then(JSON.stringify, async () => {
      await sleep(100);
      return undefined;
    });
  }
  if (after !== before) problems.push('the store changed during the outage although every write was refused (half-applied)');

  // Resumes on its own: no restart, no call to anything but the API.
  let resumedAfterMs: number | undefined;
  while (Date.now() - comeBackAt < resumeLimitMs) {
    const res = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'after-outage', name: 'After' } });
    if (res.status === 200) {
      resumedAfterMs = Date.now() - comeBackAt;
      break;
    }
    if (res.status !== 503) problems.push(`while resuming, a write answered ${res.status}: ${res.text.slice(0, 200)}`);
    await sleep(100);
  }
  if (resumedAfterMs === undefined) {
    problems.push(`writes did not resume within ${resumeLimitMs} ms of the database coming back`);
    return { problems, evaluations, refusedWrites, resumedAfterMs };
  }
  const targeted = await h.request('PUT', `/apps/${h.appId}/flags/after-outage/targeting/${dev.id}`, { body: { rules: [{ filter: { type: 'constant', value: true } }] } });
  if (targeted.status !== 200) problems.push(`targeting after the outage answered ${targeted.status}`);
  const v = targeted.body?.flagStateVersion ?? targeted.body?.flagStateVersions?.[dev.id];
  const fresh = await h.request('GET', '/features/enabled', { key: dev.publishableKey, query: { waitForVersion: v ?? 0 } });
  if (fresh.status !== 200 || !fresh.body.features?.['after-outage']) problems.push(`after the outage the snapshot did not move on: ${fresh.text.slice(0, 200)}`);
  const deadline = Date.now() + 10_000;
  while (!h.instance.client.isEnabled('after-outage', context) && Date.now() < deadline) await sleep(50);
  if (!h.instance.client.isEnabled('after-outage', context)) problems.push('the in-process client did not see the flag created after the outage');
  const event = await h.request('POST', '/event', { key: dev.secretKey, body: { userId: 'u1', event: 'after' } });
  if (event.status !== 200) problems.push(`ingestion after the outage answered ${event.status}`);
  return { problems, evaluations, refusedWrites, resumedAfterMs };
}

/**
 * Each write, failing at each repository call of its transaction in turn (the database dies mid-transaction):
 * 503 with the error body, the store unchanged; until the failure point lies past the last call and it succeeds.
 */
async function midTransactionProblems(h: Harness, control: StorageControl): Promise<{ problems: string[]; failurePoints: number }> {
  const problems: string[] = [];
  const dev = h.envs.development;
  const sdk = { key: dev.secretKey };
  ok(await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'target', name: 'Target' } }), 'flag');
  const cases: Array<{ name: string; send: () => Promise<ApiResponse> }> = [
    { name: 'create flag', send: () => h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'atomic', name: 'Atomic', description: 'd' } }) },
    { name: 'put targeting', send: () => h.request('PUT', `/apps/${h.appId}/flags/target/targeting/${dev.id}`, { body: { rules: [{ filter: { type: 'constant', value: true } }] } }) },
    { name: 'specific target', send: () => h.request('PATCH', `/apps/${h.appId}/envs/${dev.id}/users/u9/flags`, { body: { updates: [{ flagKey: 'target', specificTargetValue: true }], changeDescription: 'x' } }) },
    { name: 'create app', send: () => h.request('POST', '/apps', { body: { name: 'Atomic app' } }) },
    {
      name: 'POST /bulk',
      send: () =>
        h.request('POST', '/bulk', {
          ...sdk,
          body: [
            { type: 'user', userId: 'bulk-u', attributes: { a: 1 } },
            { type: 'company', companyId: 'bulk-c', userId: 'bulk-u', attributes: { b: 2 } },
            { type: 'event', userId: 'bulk-u', event: 'target' },
            { type: 'feature-flag-event', action: 'check', key: 'target', evalResult: true, evalContext: { user: { id: 'bulk-u' } } },
          ],
        }),
    },
  ];
  let failurePoints = 0;
  for (const c of cases) {
    for (let calls = 0; ; calls++) {
      if (calls > 200) {
        problems.push(`${c.name}: still failing after 200 failure points`);
        break;
      }
      const before = JSON.stringify(await h.storage.dump());
      control.failInTransactionAfter(calls, new StorageUnavailableError(`gone after ${calls} calls`));
      const res = await c.send();
      control.failInTransactionAfter(undefined);
      if (res.status === 200) break;
      failurePoints++;
      if (res.status !== 503) problems.push(`${c.name}, failing after ${calls} calls: ${res.status} ${res.text.slice(0, 200)}`);
      problems.push(...errorBodyProblems(res.status, res.headers.get('content-type'), res.text).map((p) => `${c.name}: ${p}`));
      if (JSON.stringify(await h.storage.dump()) !== before) {
        problems.push(`${c.name}, failing after ${calls} calls: half-applied (the store changed)`);
        break;
      }
    }
  }
  return { problems, failurePoints };
}

for (const { name, make, skip } of backends) {
  describe.skipIf(skip)(`${name}: the database goes away while serving`, () => {
    it('evaluation keeps answering from the last snapshot, writes answer 503, nothing half-applied, service resumes', { timeout: 90_000 }, async () => {
      const backend = await make();
      const h = await start(backend);
      try {
        const run = await outageScenario(h, backend);
        process.stdout.write(
          `[outage] ${name}: ${run.evaluations} evaluation rounds and ${run.refusedWrites} refused writes during the outage; resumed ${run.resumedAfterMs} ms after the database came back\n`,
        );
        expect(run.problems).toEqual([]);
      } finally {
        await backend.comeBack();
        await h.close();
        await backend.close();
      }
    });

    it('a write failing at any point of its transaction leaves nothing behind (503, store unchanged)', { timeout: 90_000 }, async () => {
      const backend = await make();
      const h = await start(backend);
      try {
        const { problems, failurePoints } = await midTransactionProblems(h, backend.control);
        process.stdout.write(`[outage] ${name}: ${failurePoints} mid-transaction failure points, each rolled back\n`);
        expect(problems).toEqual([]);
        expect(failurePoints).toBeGreaterThan(10);
      } finally {
        await h.close();
        await backend.close();
      }
    });
  });
}

describe.skipIf(!pgAvailable)('postgres: backends terminated under write traffic', () => {
  it('every answer is 200 or 503; a 200 is stored whole, a 503 is absent or whole; versions match', { timeout: 90_000 }, async () => {
    const backend = await postgresBackend();
    const h = await start(backend);
    try {
      const envIds = Object.values(h.envs).map((e) => e.id);
      const initial = Object.fromEntries(await Promise.all(envIds.map(async (id) => [id, (await h.storage.environments.get(id))!.flagStateVersion] as const)));
      const answers: Array<{ key: string; status: number; text: string }> = [];
      let stop = false;
      let terminated = 0;
      const killer = (async () => {
        while (!stop) {
          await sleep(150 + Math.random() * 200);
          terminated += await terminateBackends(backend.ports!());
        }
      })();
      const workers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          const key = `kill-${w}-${i}`;
          const res = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key, name: key } });
          answers.push({ key, status: res.status, text: res.text });
        }
      });
      await sleep(4000);
      stop = true;
      await Promise.all([killer, ...workers]);

      const problems: string[] = [];
      for (const a of answers) {
        if (a.status !== 200 && a.status !== 503) problems.push(`${a.key}: ${a.status} ${a.text.slice(0, 200)}`);
        if (a.status === 503) problems.push(...errorBodyProblems(503, 'application/json', a.text));
      }
      let dump: Record<string, unknown[]> | undefined;
      for (let i = 0; i < 50 && !dump; i++) dump = await h.storage.dump().catch(() => sleep(100).then(() => undefined));
      const flags = new Set((dump!['flags'] as Array<{ key: string }>).map((f) => f.key));
      const audited = new Set(
        (dump!['audit'] as Array<{ action: string; after: { key?: string } | null }>).filter((a) => a.action === 'flag.created').map((a) => a.after?.key),
      );
      for (const a of answers) {
        const stored = flags.has(a.key);
        if (a.status === 200 && !stored) problems.push(`${a.key} was acknowledged and is missing`);
        if (stored !== audited.has(a.key)) problems.push(`${a.key}: flag row ${stored ? 'without' : 'missing but'} audit entry (half-applied)`);
      }
      const created = answers.filter((a) => flags.has(a.key)).length;
      for (const id of envIds) {
        const env = (dump!['environments'] as Array<{ id: string; flagStateVersion: number }>).find((e) => e.id === id)!;
        if (env.flagStateVersion !== initial[id]! + created) problems.push(`env ${id}: version ${env.flagStateVersion}, expected ${initial[id]! + created} (one bump per stored flag)`);
      }
      const ok200 = answers.filter((a) => a.status === 200).length;
      process.stdout.write(`[outage] postgres: ${terminated} backends terminated under traffic; ${answers.length} writes, ${ok200} acknowledged, ${answers.length - ok200} refused; all consistent: ${problems.length === 0}\n`);
      expect(problems).toEqual([]);
      expect(terminated).toBeGreaterThan(0);
      expect(ok200).toBeGreaterThan(0);
    } finally {
      await h.close();
      await backend.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('storage outage self-check: deliberately broken builds are caught', () => {
  it('a store whose transactions are not atomic is caught half-applied', { timeout: 60_000 }, async () => {
    const backend = sqliteBackend();
    backend.control.nonAtomic(true);
    const h = await start(backend);
    try {
      const { problems } = await midTransactionProblems(h, backend.control);
      expect(problems.join('\n')).toMatch(/half-applied/);
    } finally {
      await h.close();
    }
  });

  it('a cache that drops its snapshot when the store fails is caught (evaluation stops answering)', { timeout: 60_000 }, async () => {
    const backend = sqliteBackend();
    const h = await start(backend);
    const snapshots = h.instance.services.snapshots;
    const original = snapshots.get.bind(snapshots);
    let gone = false;
    snapshots.get = (envId) => (gone ? undefined : original(envId));
    const goAway = backend.goAway;
    backend.goAway = async () => {
      gone = true;
      await goAway();
    };
    const comeBack = backend.comeBack;
    backend.comeBack = async () => {
      gone = false;
      await comeBack();
    };
    try {
      const run = await outageScenario(h, backend, 300, 3000);
      expect(run.problems.join('\n')).toMatch(/during the outage: .*(answered 403|is false|lost steady)/);
    } finally {
      await h.close();
    }
  });

  it('a cache that retries a failed reload at once (a loop eating the CPU) is caught', { timeout: 60_000 }, async () => {
    const backend = sqliteBackend();
    const h = await start(backend);
    const snapshots = h.instance.services.snapshots as unknown as { failed: Set<string>; reload(envId: string): Promise<void>; scheduleRetry(): void };
    snapshots.scheduleRetry = function (this: typeof snapshots) {
      for (const envId of [...this.failed]) {
        this.failed.delete(envId);
        void this.reload(envId);
      }
    };
    try {
      const run = await outageScenario(h, backend, 300, 3000);
      expect(run.problems.join('\n')).toMatch(/store calls in 1.2 s of idle outage/);
    } finally {
      backend.control.fail(undefined);
      await h.close();
    }
  });

  it('a store that never comes back is caught (no resumption)', { timeout: 60_000 }, async () => {
    const backend = sqliteBackend();
    const h = await start(backend);
    backend.comeBack = async () => {};
    try {
      const run = await outageScenario(h, backend, 300, 1500);
      expect(run.problems.join('\n')).toMatch(/did not resume/);
    } finally {
      backend.control.fail(undefined);
      await h.close();
    }
  });
});
