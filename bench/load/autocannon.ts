import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadOptions, LoadResult } from './types.js';

const CHILD = fileURLToPath(new URL('./autocannon-child.ts', import.meta.url));

/** Runs autocannon in a child process of its own (never in the process that hosts a server). */
export async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  const dir = await mkdtemp(join(tmpdir(), 'flagmount-autocannon-'));
  try {
    const file = join(dir, 'options.json');
    await writeFile(file, JSON.stringify(options));
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), (options.durationSec + 30) * 1000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(out);
        else reject(new Error(`autocannon child exited with ${code}:\n${out}`));
      });
    });
    const line = output.split('\n').find((l) => l.startsWith('AUTOCANNON_JSON '));
    if (!line) throw new Error(`autocannon printed no summary:\n${output}`);
    const r = JSON.parse(line.slice('AUTOCANNON_JSON '.length)) as Omit<LoadResult, 'tool' | 'rps'>;
    return { tool: 'autocannon', ...r, rps: r.requests / r.durationSec };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
