import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { CheckAnswer, ReplicaLog, ReplicaReady } from './replica.js';

export type { CheckAnswer, ReplicaLog, ReplicaReady } from './replica.js';

/**
 * Replicas of a host application as child processes (test/support/replica.ts through tsx), all on one Postgres
 * schema: what a user runs behind a load balancer, on one machine.
 */

/** The repository root: children run there so that tsx finds tsconfig.json (workspace paths → sources). */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./replica.ts', import.meta.url));

export interface ReplicaOptions {
  name: string;
  url: string;
  schema: string;
  /** Safety-net poll while LISTEN is up (FLAGMOUNT_PG_POLL_MS). Long in tests, so that LISTEN alone is measured. */
  pollIntervalMs?: number;
  /** Milliseconds to wait for the child to load, and then to be ready. Default 90 s (a noisy 2-core machine). */
  timeoutMs?: number;
}

export interface Replica {
  readonly name: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** Set once ready. */
  port: number;
  baseUrl: string;
  bootstrap: ReplicaReady['bootstrap'];
  /** Every log line the replica reported so far. */
  readonly logs: ReplicaLog[];
  /** The replica's stderr so far (for failure messages). */
  output(): string;
  /** fetch against this replica: `path` starts with '/'. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** JSON of a 2xx answer; anything else throws with the body. */
  json<T>(path: string, init?: RequestInit): Promise<T>;
  check(flag: string, user: string, env?: string): Promise<CheckAnswer>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

interface Pending {
  replica: Replica;
  loaded: Promise<void>;
  /** Sends 'go' and resolves once the replica is ready. */
  go(): Promise<Replica>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function spawnReplica(options: ReplicaOptions): Pending {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FLAGMOUNT_PG_URL: options.url,
    FLAGMOUNT_PG_SCHEMA: options.schema,
    REPLICA_NAME: options.name,
    PORT: '0',
    ...(options.pollIntervalMs ? { FLAGMOUNT_PG_POLL_MS: String(options.pollIntervalMs) } : {}),
  };
  // Bootstrap creates a fresh management key only when none is configured: the test wants to see which start won.
  delete env['FLAGMOUNT_MANAGEMENT_KEY'];
  const child = fork(SCRIPT, [], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx', '--max-http-header-size=65536'],
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child);
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => live.delete(child));
  const logs: ReplicaLog[] = [];
  child.on('message', (message: { type?: string }) => {
    if (message?.type === 'log') logs.push(message as ReplicaLog);
  });

  const waitFor = <T>(type: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const finish = (action: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        action();
      };
      const onMessage = (message: { type?: string; message?: string }) => {
        if (message?.type === 'error') finish(() => reject(new Error(`replica ${options.name} failed: ${message.message}\n${output.slice(-4000)}`)));
        else if (message?.type === type) finish(() => resolve(message as T));
      };
      const onExit = (code: number | null) =>
        finish(() => reject(new Error(`replica ${options.name} exited (${code}) before '${type}'\n${output.slice(-4000)}`)));
      const timer = setTimeout(
        () => finish(() => reject(new Error(`replica ${options.name}: no '${type}' within ${timeoutMs} ms\n${output.slice(-4000)}`))),
        timeoutMs,
      );
      child.on('message', onMessage);
      child.once('exit', onExit);
    });

  const replica: Replica = {
    name: options.name,
    pid: child.pid ?? -1,
    process: child,
    port: 0,
    baseUrl: '',
    bootstrap: { created: false, organizationId: '', appId: '', environments: [] },
    logs,
    output: () => output,
    fetch: (path, init) => fetch(replica.baseUrl + path, init),
    async json<T>(path: string, init?: RequestInit): Promise<T> {
      const response = await replica.fetch(path, init);
      const text = await response.text();
      if (!response.ok) throw new Error(`${options.name} ${init?.method ?? 'GET'} ${path} → ${response.status} ${text}`);
      return JSON.parse(text) as T;
    },
    check(flag, user, env) {
      const query = new URLSearchParams({ flag, user, ...(env ? { env } : {}) });
      return replica.json<CheckAnswer>(`/check?${query}`);
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };

  const loaded = waitFor<unknown>('loaded').then(() => undefined);
  return {
    replica,
    loaded,
    async go() {
      const ready = waitFor<ReplicaReady>('ready');
      child.send({ type: 'go' });
      const message = await ready;
      replica.port = message.port;
      replica.baseUrl = `http://127.0.0.1:${message.port}`;
      replica.bootstrap = message.bootstrap;
      return replica;
    },
  };
}

/**
 * Starts replicas together: every process first loads its modules, then all are told to go at the same moment, so
 * that their migrations and bootstraps really race on an empty schema.
 */
export async function startReplicas(options: readonly ReplicaOptions[]): Promise<Replica[]> {
  const pending = options.map(spawnReplica);
  try {
    await Promise.all(pending.map((p) => p.loaded));
    return await Promise.all(pending.map((p) => p.go()));
  } catch (error) {
    await Promise.all(pending.map((p) => p.replica.stop(2000)));
    throw error;
  }
}

/** Management API of a replica, with the bootstrap key. */
export function management(replica: Replica, key: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    replica.json<T>(`/flags${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    call,
    createFlag: (appId: string, key: string, name = key) =>
      call<{ flag: { id: string; key: string }; flagStateVersions: Record<string, number> }>('POST', `/apps/${appId}/flags`, { key, name }),
    updateFlag: (appId: string, flagId: string, patch: Record<string, unknown>) =>
      call<{ flag: { id: string; name: string }; flagStateVersions: Record<string, number> }>('PATCH', `/apps/${appId}/flags/${flagId}`, patch),
    /** Management upsert of a user (`{}` changes nothing of one already stored): needed before it can be targeted. */
    upsertUser: (appId: string, envId: string, userId: string) =>
      call<{ id: string }>('PUT', `/apps/${appId}/envs/${envId}/users/${encodeURIComponent(userId)}`, {}),
    /** Rows 9: `true` targets the user (stored first: see upsertUser), `null` removes the targeting. */
    targetUser: (appId: string, envId: string, userId: string, flagKey: string, value: true | null = true) =>
      call<{ flagStateVersion: number }>('PATCH', `/apps/${appId}/envs/${envId}/users/${encodeURIComponent(userId)}/flags`, {
        updates: [{ flagKey, specificTargetValue: value }],
      }),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every `everyMs` until it returns a value other than undefined; throws after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The application name of a schema's LISTEN connection (storage-postgres: `flagmount-listener:<schema>`). */
export function listenerApplicationName(schema: string): string {
  return `flagmount-listener:${schema}`.slice(0, 63);
}

/**
 * Local TCP ports of a process's open sockets, from /proc (Linux): how a backend in pg_stat_activity (its
 * `client_port`) is tied to the replica that opened it. Undefined where /proc cannot tell.
 */
export function localPortsOf(pid: number): Set<number> | undefined {
  try {
    const inodes = new Set<string>();
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match) inodes.add(match[1]!);
      } catch {
        // closed meanwhile
      }
    }
    const ports = new Set<number>();
    for (const table of ['tcp', 'tcp6']) {
      let text: string;
      try {
        text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        if (cols.length < 10 || !inodes.has(cols[9]!)) continue;
        ports.add(parseInt(cols[1]!.split(':')[1]!, 16));
      }
    }
    return ports;
  } catch {
    return undefined;
  }
}

export interface ListenerBackend {
  pid: number;
  clientPort: number;
}

/** The schema's LISTEN backends; with `replica`, only that replica's (when /proc can tell them apart). */
export async function listenerBackends(url: string, schema: string, replica?: Replica): Promise<ListenerBackend[]> {
  const rows = await query<{ pid: number; client_port: number }>(
    url,
    `select pid, client_port from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()`,
    [listenerApplicationName(schema)],
  );
  const all = rows.map((r) => ({ pid: r.pid, clientPort: r.client_port }));
  if (!replica) return all;
  const ports = localPortsOf(replica.pid);
  if (!ports) return all;
  return all.filter((b) => ports.has(b.clientPort));
}

/** Runs one statement on a short-lived connection. */
export async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}
