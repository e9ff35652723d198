import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./fixtures/check-loop.ts', import.meta.url));

interface Result {
  calls: number;
  elapsedMs: number;
  growthMb: number;
  peakGrowthMb: number;
  stats: { client: { checksCounted: number; checksDropped: number; contextUpdatesDropped: number; pendingRows: number } };
  warnings: string[];
}

function run(calls: number): Promise<{ code: number | null; result?: Result; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=384', '--expose-gc', '--import', 'tsx', script, String(calls)],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = stdout.trim().split('\n').at(-1);
      resolve({ code, stderr, ...(line?.startsWith('{') ? { result: JSON.parse(line) as Result } : {}) });
    });
  });
}

describe('the in-process client in a synchronous loop (issue 35)', () => {
  it('5M tracked checks with distinct users fit in a 384 MB heap, grow it by ≤ 100 MB, and count what they drop', async () => {
    const { code, result, stderr } = await run(5_000_000);
    expect(code, stderr).toBe(0);
    expect(result!.peakGrowthMb).toBeLessThanOrEqual(100);
    expect(result!.growthMb).toBeLessThanOrEqual(100);
    const { client } = result!.stats;
    // Every call checked a new user: each is either counted or dropped, none lost silently.
    expect(client.checksCounted + client.checksDropped).toBe(5_000_000);
    expect(client.checksDropped).toBeGreaterThan(0);
    expect(client.contextUpdatesDropped).toBeGreaterThan(0);
    // Logged at most once a minute (a loaded machine may take over a minute), never thrown.
    const logged = result!.warnings.filter((w) => /buffer full/.test(w)).length;
    expect(logged).toBeGreaterThanOrEqual(1);
    expect(logged).toBeLessThanOrEqual(1 + Math.floor(result!.elapsedMs / 60_000));
    // close() flushed what the buffer held.
    expect(client.pendingRows).toBeGreaterThan(0);
  }, 240_000);
});
