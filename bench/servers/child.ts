import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: children run there so that tsx finds tsconfig.json (workspace paths → sources). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildMessage {
  type: string;
  [key: string]: unknown;
}

export interface Child {
  readonly pid: number;
  readonly process: ChildProcess;
  /** Resolves with the first message of this type the child sends (rejects if it exits first or on timeout). */
  message<T = ChildMessage>(type: string, timeoutMs?: number): Promise<T>;
  send(message: ChildMessage): void;
  /** The child's stdout+stderr so far (for errors). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface SpawnOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Extra Node flags (e.g. `--expose-gc`). `--max-http-header-size=65536` is always set (architecture: URL length). */
  nodeFlags?: string[];
}

/** Forks a TypeScript entry (through tsx) with an IPC channel. */
export function spawnChild(entry: string | URL, options: SpawnOptions = {}): Child {
  const file = entry instanceof URL ? fileURLToPath(entry) : entry;
  const proc = fork(file, options.args ?? [], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx', '--max-http-header-size=65536', ...(options.nodeFlags ?? [])],
    env: { ...process.env, NODE_ENV: 'production', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(proc);
  let log = '';
  const append = (d: Buffer) => {
    log += d.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  proc.stdout?.on('data', append);
  proc.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  void exited.then(() => live.delete(proc));

  return {
    pid: proc.pid ?? -1,
    process: proc,
    output: () => log,
    send: (message) => void proc.send(message),
    message<T>(type: string, timeoutMs = 120_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const onMessage = (m: ChildMessage) => {
          if (m?.type === 'error') finish(() => reject(new Error(`${file}: ${String(m['message'])}\n${log.slice(-4000)}`)));
          else if (m?.type === type) finish(() => resolve(m as unknown as T));
        };
        const onExit = (code: number | null) =>
          finish(() => reject(new Error(`${file} exited (${code}) before '${type}'\n${log.slice(-4000)}`)));
        const timer = setTimeout(
          () => finish(() => reject(new Error(`${file}: no '${type}' within ${timeoutMs} ms\n${log.slice(-4000)}`))),
          timeoutMs,
        );
        const finish = (action: () => void) => {
          clearTimeout(timer);
          proc.off('message', onMessage);
          proc.off('exit', onExit);
          action();
        };
        proc.on('message', onMessage);
        proc.once('exit', onExit);
      });
    },
    async stop(graceMs = 10_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** In a child: report to the parent. */
export function report(message: ChildMessage): void {
  process.send?.(message);
}

/** In a child: report a failure to the parent, then exit non-zero. */
export function fail(error: unknown): void {
  const message = error instanceof Error ? `${error.stack ?? error.message}` : String(error);
  console.error(message);
  if (process.send) process.send({ type: 'error', message }, () => process.exit(1));
  else process.exit(1);
}
