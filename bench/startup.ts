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

/** Startup: createFlagmount() to the first answered request, with 10,000 flags (SQLite) vs an empty store. */

const PROBE = new URL('./servers/startup-probe.ts', import.meta.url);

interface Probe {
  createMs: number;
  listenMs: number;
  firstAnswerMs: number;
  fullMs: number;
  fullBytes: number;
  features: number;
  /** Spawn of the child process to its first answer (Node start, tsx, module loading included). */
  processMs: number;
}

async function probe(store: StoreSpec, key: string): Promise<Probe> {
  const spawnedAt = Date.now();
  const child = spawnChild(PROBE, { args: [JSON.stringify({ store, key })] });
  try {
    const r = await child.message<Omit<Probe, 'processMs'> & { type: 'result'; answeredEpoch: number }>('result', 180_000);
    return { ...r, processMs: r.answeredEpoch - spawnedAt };
  } finally {
    await child.stop();
  }
}

export default async function run(): Promise<BenchResult> {
  const flags = Math.round(config.envNumber('BENCH_STARTUP_FLAGS', 10_000));
  const runs = config.runs();
  const dir = await mkdtemp(join(tmpdir(), 'flagmount-bench-startup-'));
  const key = flagMix(1)[0]!.key;
  try {
    config.log(`  seeding ${flags} flags × 3 environments straight through the store…`);
    const stores = await seededPair(dir, flags);
    // One unrecorded start each: the first start also pays tsx's transform cache and a cold page cache.
    await probe(stores.empty, key);
    await probe(stores.large, key);
    const samples = { empty: [] as Probe[], large: [] as Probe[] };
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? (['empty', 'large'] as const) : (['large', 'empty'] as const);
      for (const which of order) {
        const p = await probe(stores[which], key);
        samples[which].push(p);
        config.log(`  run ${round + 1}/${runs} ${which}: first answer ${p.firstAnswerMs.toFixed(0)} ms after createFlagmount()`);
      }
    }
    const med = (which: 'empty' | 'large', field: keyof Probe) => median(samples[which].map((p) => p[field]));
    const fields = ['createMs', 'listenMs', 'firstAnswerMs', 'processMs', 'fullMs'] as const;
    const row = (label: string, which: 'empty' | 'large'): Cell[] => [label, ...fields.map((f) => Number(med(which, f).toFixed(1))), samples[which][0]!.features];
    const ratio = med('large', 'firstAnswerMs') / med('empty', 'firstAnswerMs');
    return {
      title: 'Startup',
      workload:
        `A Fastify host process with Flagmount on SQLite, seeded beforehand straight through the store (${describeMix(flagMix(flags))}, targeting in ${stores.environments} environments; ` +
        `seeding took ${(stores.seedMs / 1000).toFixed(1)} s), vs the same host on an empty bootstrapped store. Modules are imported first; the clock starts at \`createFlagmount()\` ` +
        `and stops when the host has answered its first \`GET /flags/features/evaluated?key=…\` over loopback. ${runs} fresh child processes per store (after one unrecorded start each), median reported.`,
      tables: [
        {
          columns: ['Store', 'createFlagmount() ms', 'listening ms', 'first answer ms', 'process spawn → first answer ms', 'then evaluate-all ms', 'flags answered'],
          rows: [row('empty (bootstrapped)', 'empty'), row(`${flags} flags × ${stores.environments} environments`, 'large')],
        },
      ],
      notes: [
        `With ${flags} flags the first answer comes ${ratio.toFixed(1)}× as late as on an empty store (${(med('large', 'firstAnswerMs') - med('empty', 'firstAnswerMs')).toFixed(0)} ms more).`,
        `"then evaluate-all" is the next request, without \`key\`: every flag evaluated and serialised (${(samples.large[0]!.fullBytes / 1024 / 1024).toFixed(1)} MB of JSON for ${flags} flags).`,
        '"process spawn → first answer" adds Node start, tsx and module loading (the benchmark runs TypeScript sources through tsx; a built package loads faster).',
      ],
      data: { flags, environments: stores.environments, seedMs: stores.seedMs, ratio, samples },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
