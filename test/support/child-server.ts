import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A host app in its own process (under tsx, so it runs the TypeScript sources), for tests that kill it or measure
 * its memory. The script prints `READY <json>` on stdout once it listens, and answers IPC requests
 * (`{ id, type }` → `{ id, ...reply }`).
 */
export interface ChildServer {
  readonly pid: number;
  readonly origin: string;
  readonly child: ChildProcess;
  /** What the script printed with READY. */
  readonly info: Record<string, unknown>;
  stdout(): string;
  stderr(): string;
  /** Sends an IPC request and resolves the reply. */
  ask<T = Record<string, unknown>>(type: string, payload?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Resolves with the exit code / signal once the process is gone. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function startChildServer(
  script: string,
  env: Record<string, string | undefined>,
  { readyTimeoutMs = 60_000, nodeArgs = [] as string[] } = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} not ready after ${readyTimeoutMs} ms\n${out}\n${err}`));
    }, readyTimeoutMs);
    const onData = () => {
      const match = /^READY (.*)$/m.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(JSON.parse(match[1]!) as Record<string, unknown>);
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}) before it was ready\n${out}\n${err}`));
    });
  });
  let nextId = 0;
  const pending = new Map<number, (reply: Record<string, unknown>) => void>();
  child.on('message', (message: { id?: number }) => {
    if (typeof message?.id === 'number') pending.get(message.id)?.(message as Record<string, unknown>);
  });
  return {
    pid: child.pid!,
    origin: `http://127.0.0.1:${String(info['port'])}`,
    child,
    info,
    stdout: () => out,
    stderr: () => err,
    exited,
    ask<T>(type: string, payload: Record<string, unknown> = {}, timeoutMs = 10_000) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`no reply to ${type} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, (reply) => {
          clearTimeout(timer);
          pending.delete(id);
          resolve(reply as T);
        });
        child.send({ id, type, ...payload });
      });
    },
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
