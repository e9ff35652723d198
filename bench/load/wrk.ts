import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadOptions, LoadResult } from './types.js';
import { wrkScript } from './wrk-script.js';

/** `wrk` on PATH (Debian: `apt-get install wrk`, LuaJIT build). */
export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

interface WrkSummary {
  requests: number;
  duration_us: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  mean_us: number;
  max_us: number;
  p50_us: number;
  p90_us: number;
  p99_us: number;
}

/** Runs wrk as a separate process for `durationSec`, killed if it overruns by 30 s. */
export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  const threads = Math.max(1, Math.min(Number(process.env['BENCH_WRK_THREADS'] ?? 1), options.connections));
  const dir = await mkdtemp(join(tmpdir(), 'flagmount-wrk-'));
  try {
    const script = join(dir, 'script.lua');
    await writeFile(script, wrkScript(options.requests, { threads, ...(options.rate ? { rate: options.rate } : {}) }));
    const args = [
      `-t${threads}`,
      `-c${options.connections}`,
      `-d${options.durationSec}s`,
      `--timeout`,
      `${options.timeoutSec ?? 10}s`,
      '-s',
      script,
      options.origin,
    ];
    const output = await run('wrk', args, (options.durationSec + 30) * 1000);
    const line = output.split('\n').find((l) => l.startsWith('WRK_JSON '));
    if (!line) throw new Error(`wrk printed no summary:\n${output}`);
    const s = JSON.parse(line.slice('WRK_JSON '.length)) as WrkSummary;
    const durationSec = s.duration_us / 1e6;
    return {
      tool: 'wrk',
      requests: s.requests,
      non2xx: s.status,
      errors: s.connect + s.read + s.write + s.timeout,
      durationSec,
      rps: s.requests / durationSec,
      meanMs: s.mean_us / 1000,
      p50Ms: s.p50_us / 1000,
      p90Ms: s.p90_us / 1000,
      p99Ms: s.p99_us / 1000,
      maxMs: s.max_us / 1000,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} exited with ${code}:\n${out}`));
    });
  });
}
