import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { distDir } from '../index.js';

/** The budget: at most 150 KB of gzipped JavaScript, every chunk counted (the chart's too). */
const BUDGET_BYTES = 150 * 1024;

describe('dashboard bundle', () => {
  it('ships at most 150 KB of gzipped JavaScript (the unit project builds dist/ from the current sources first)', async () => {
    const assets = join(distDir, 'assets');
    const scripts = (await readdir(assets)).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    let total = 0;
    for (const file of scripts) total += gzipSync(await readFile(join(assets, file)), { level: 9 }).length;
    console.info(`dashboard JavaScript: ${scripts.length} files, ${(total / 1024).toFixed(1)} KB gzipped (budget 150 KB)`);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
