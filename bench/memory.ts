import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult, Cell } from './lib/result.js';
import { median } from './lib/measure.js';
import * as config from './load/config.js';
import { describeMix, flagMix } from './peers/flag-mix.js';
import { seededPair } from './peers/seeded.js';
import { spawnChild } from './servers/child.js';
import type { StoreSpec } from './servers/host-config.js';

/** Memory: RSS and heap of an instance with 10,000 flags × 3 environments loaded and compiled, vs an empty one. */

const PROBE = new URL('./servers/memory-probe.ts', import.meta.url);
const TARGET_MB = 50;
/** Decimal megabytes, the stricter reading of the target (a MiB is 4.9 % larger). */
const MB = 1_000_000;

interface Probe {
  memory: NodeJS.MemoryUsage;
  environments: number;
  evaluated: number;
}

async function probe(store: StoreSpec): Promise<Probe> {
  const child = spawnChild(PROBE, { args: [JSON.stringify({ store })], nodeFlags: ['--expose-gc'] });
  try {
    return await child.message<Probe & { type: 'result' }>('result', 180_000);
  } finally {
    await child.stop();
  }
}

export default async function run(): Promise<BenchResult> {
  const flags = Math.round(config.envNumber('BENCH_MEMORY_FLAGS', 10_000));
  const runs = config.runs();
  const dir = await mkdtemp(join(tmpdir(), 'flagmount-bench-memory-'));
  try {
    config.log(`  seeding ${flags} flags × 3 environments straight through the store…`);
    const stores = await seededPair(dir, flags);
    const samples = { empty: [] as Probe[], large: [] as Probe[] };
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? (['empty', 'large'] as const) : (['large', 'empty'] as const);
      for (const which of order) {
        const p = await probe(stores[which]);
        samples[which].push(p);
        config.log(`  run ${round + 1}/${runs} ${which}: rss ${(p.memory.rss / MB).toFixed(1)} MB, heap ${(p.memory.heapUsed / MB).toFixed(1)} MB`);
      }
    }
    const med = (which: 'empty' | 'large', field: keyof NodeJS.MemoryUsage) => median(samples[which].map((p) => p.memory[field])) / MB;
    const fields = ['rss', 'heapUsed', 'heapTotal', 'external'] as const;
    const row = (label: string, which: 'empty' | 'large'): Cell[] => [label, ...fields.map((f) => Number(med(which, f).toFixed(1)))];
    const delta = Object.fromEntries(fields.map((f) => [f, med('large', f) - med('empty', f)])) as Record<(typeof fields)[number], number>;
    const large = samples.large[0]!;
    const ok = (x: number) => (x <= TARGET_MB ? 'met' : 'NOT met');
    return {
      title: 'Memory',
      workload:
        `One Flagmount instance per child process (\`--expose-gc\`), SQLite store seeded beforehand straight through the store: ` +
        `${describeMix(flagMix(flags))}, with targeting in each of ${stores.environments} environments, vs an instance on a bootstrapped but empty store. ` +
        `Every environment's snapshot loaded and compiled at start, then every flag evaluated once per environment through the in-process client (${large.evaluated} evaluations); ` +
        `four full GCs before \`process.memoryUsage()\`. ${runs} child processes per instance, median reported.`,
      tables: [
        {
          columns: ['Instance', 'RSS MB', 'heap used MB', 'heap total MB', 'external MB'],
          rows: [
            row('empty instance', 'empty'),
            row(`${flags} flags × ${stores.environments} environments`, 'large'),
            ['difference', ...fields.map((f) => Number(delta[f].toFixed(1)))],
          ],
        },
      ],
      notes: [
        `Target: ≤ ${TARGET_MB} MB above an empty instance → RSS +${delta.rss.toFixed(1)} MB (${ok(delta.rss)}), heap used +${delta.heapUsed.toFixed(1)} MB (${ok(delta.heapUsed)}).`,
        `Per flag and environment: ${((delta.heapUsed * MB) / (flags * stores.environments)).toFixed(0)} bytes of heap.`,
        'RSS includes what V8 keeps reserved after GC and SQLite\'s page cache; heap used is the live JavaScript data.',
      ],
      data: {
        flags,
        environments: stores.environments,
        deltaMB: delta,
        samples: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map((p) => p.memory)])),
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
