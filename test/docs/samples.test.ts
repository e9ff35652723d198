import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { docPages, ROOT, sampleFileName, samplesOf, type Sample } from './samples.js';
import { typeCheck } from './typecheck.js';

/**
 * Docs are code: every ```ts block of README.md and docs/*.md type-checks against the packages' sources, and the
 * ones marked `run` are executed. A page added later is picked up without touching this file.
 */
const pages = docPages();
const samples: Sample[] = pages.flatMap((file) => samplesOf(file));
const RUN_DIR = `${ROOT}test/docs/.samples/`;

describe('documentation samples', () => {
  afterAll(() => rmSync(RUN_DIR, { recursive: true, force: true }));

  it('finds the samples of every page, and a reason for each one left unchecked', () => {
    expect(pages).toContain('README.md');
    expect(samples.filter((s) => s.file === 'README.md').length).toBeGreaterThan(2);
    for (const sample of samples.filter((s) => s.mode === 'no-check')) expect(sample.reason!.length).toBeGreaterThan(10);
  });

  it('reads the markers, and names the line of a block it refuses', () => {
    const page = 'text\n```ts\nconst a = 1;\n```\n```ts run\nconst b = 2;\n```\n```ts no-check a fragment of the sample above\nb;\n```\n';
    expect(samplesOf('docs/x.md', page).map((s) => [s.line, s.mode])).toEqual([
      [3, 'check'],
      [6, 'run'],
      [9, 'no-check'],
    ]);
    expect(() => samplesOf('docs/x.md', '```ts no-check\nx\n```\n')).toThrow('docs/x.md:1');
    expect(() => samplesOf('docs/x.md', '```ts maybe\nx\n```\n')).toThrow('unknown marker');
  });

  // One program for all of them (the compiler's start is the cost), with a broken sample to show how one is reported.
  const broken: Sample = { file: 'docs/broken.md', line: 10, code: "import { createFlagmount } from '@flagmount/core';\n\ncreateFlagmount(42);", mode: 'check' };
  let problems: string[] | undefined;
  const checkAll = () => (problems ??= typeCheck([...samples.filter((s) => s.mode !== 'no-check'), broken]));

  it('type-checks every sample against the sources', () => {
    expect(checkAll().filter((p) => !p.startsWith('docs/broken.md:'))).toEqual([]);
  }, 240_000);

  it('names the page and line of a sample that does not compile', () => {
    const reported = checkAll().filter((p) => p.startsWith('docs/broken.md:'));
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatch(/^docs\/broken\.md:12:17 /);
  }, 240_000);

  // Run in a child process through tsx, as a reader would run them: a sample's server, timers or signals never
  // touch the test runner.
  for (const sample of samples.filter((s) => s.mode === 'run')) {
    it(`runs ${sample.file}:${sample.line}`, async () => {
      mkdirSync(RUN_DIR, { recursive: true });
      const file = `${RUN_DIR}${sampleFileName(sample)}`;
      writeFileSync(file, `${sample.code}\nexport {};\n`);
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
        cwd: ROOT,
        timeout: 60_000,
        env: { ...process.env, NODE_ENV: 'test' },
      });
      expect(stdout, `${sample.file}:${sample.line} printed nothing`).not.toBe('');
    }, 90_000);
  }
});
