import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { selectedAdapters } from '../http/support/adapters.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./fixtures/close-app.ts', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the script's last line ("closed") to the process exit. */
  exitDelayMs: number | undefined;
}

/** Runs the fixture under tsx (tsconfig paths → sources) and waits for it to exit by itself, killing it after `limitMs`. */
function runFixture(adapter: string, limitMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, adapter], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let closedAt: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (closedAt === undefined && /^closed$/m.test(stdout)) closedAt = Date.now();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, exitDelayMs: closedAt === undefined ? undefined : Date.now() - closedAt });
    });
  });
}

// Concurrent: most of each run is tsx loading the sources, which parallelises well.
describe.concurrent('close() releases everything', () => {
  for (const adapter of selectedAdapters()) {
    it(`${adapter.name}: a process running an app exits on its own after close()`, { timeout: 90_000 }, async () => {
      const run = await runFixture(adapter.name, 80_000);
      expect(run.stdout, run.stderr).toContain('sse 200');
      expect(run.stdout, run.stderr).toContain('write 200');
      expect(run.stdout, run.stderr).toContain('stream ended');
      expect(run.stdout, run.stderr).toContain('closed');
      expect(run.stdout).not.toContain('process.exit');
      expect(run.code, run.stderr).toBe(0);
      expect(run.exitDelayMs).toBeLessThan(3000);
    });
  }
});
