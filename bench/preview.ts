import { createFlagmount, type CoreRequest, type Flagmount } from '@flagmount/core';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BenchResult, Cell } from './lib/result.js';
import { median } from './lib/measure.js';
import * as config from './load/config.js';

/**
 * Impact preview (`POST …/targeting/{envId}/preview`) on SQLite: seconds per 100,000 stored entities, and how far
 * the heap grows during one preview, for growing numbers of stored users (a tenth as many companies). The store is
 * read in keyset pages, so the growth must not follow the entity count. Bar (issue 39): ≤ 2 s per 100k entities.
 */

const KEY = 'fmk_bench_preview_management_key_0123456789';
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PLANS = ['free', 'pro', 'enterprise', 'team'];

async function call(instance: Flagmount, method: string, path: string, body?: unknown): Promise<any> {
  const request: CoreRequest = {
    method,
    path,
    query: [],
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? { kind: 'none' } : { kind: 'raw', text: JSON.stringify(body), contentType: 'application/json' },
  };
  const res = await instance.handler(request);
  const text = typeof res.body === 'string' ? res.body : Buffer.isBuffer(res.body) ? res.body.toString('utf8') : '';
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function seed(instance: Flagmount, envId: string, from: number, to: number): Promise<void> {
  const at = new Date().toISOString();
  const storage = instance.services.storage;
  for (let start = from; start < to; start += 5000) {
    await storage.transaction(async (tx) => {
      for (let i = start; i < Math.min(to, start + 5000); i++) {
        await tx.entities.put({ envId, type: 'user', id: `user-${i}`, name: null, attributes: { plan: PLANS[i % 4], seats: i % 500, country: i % 3 ? 'de' : 'fr' }, createdAt: at, updatedAt: at });
        if (i % 10 === 0) await tx.entities.put({ envId, type: 'company', id: `company-${i}`, name: null, attributes: { tier: i % 5 }, createdAt: at, updatedAt: at });
      }
    });
  }
}

/** Runs `fn`, sampling the heap every 5 ms: the peak above the collected heap before it. */
async function withHeapPeak<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; heapGrowthMb: number; retainedMb: number }> {
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const started = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - started;
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    gc();
    return { value, ms, heapGrowthMb: (peak - base) / 1e6, retainedMb: (process.memoryUsage().heapUsed - base) / 1e6 };
  } finally {
    clearInterval(timer);
  }
}

export default async function run(): Promise<BenchResult> {
  const sizes = config.envList('BENCH_PREVIEW_USERS', ['100000', '300000']).map(Number).sort((a, b) => a - b);
  const runs = config.runs();
  const dir = await mkdtemp(join(tmpdir(), 'flagmount-bench-preview-'));
  const instance = await createFlagmount({ storage: sqliteStorage({ filename: join(dir, 'flags.db') }), bootstrap: { managementKey: KEY } });
  const rows: Cell[][] = [];
  const data: Record<string, unknown> = {};
  try {
    const appId = instance.bootstrap!.appId;
    const envId = (await instance.services.storage.environments.listByApp(appId)).find((e) => e.name === 'Production')!.id;
    await call(instance, 'POST', `/apps/${appId}/flags`, { key: 'k', name: 'k' });
    const targeting = `/apps/${appId}/flags/k/targeting/${envId}`;
    await call(instance, 'PUT', targeting, { rules: [{ filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } }] });
    const proposed = {
      rules: [
        { filter: { type: 'context', field: 'user.plan', operator: 'ANY_OF', values: ['enterprise', 'team'] } },
        { filter: { type: 'group', operator: 'and', filters: [{ type: 'context', field: 'user.country', operator: 'IS', values: ['de'] }, { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 25000 }] } },
        { filter: { type: 'context', field: 'company.tier', operator: 'GT', values: ['2'] } },
      ],
    };
    let seeded = 0;
    for (const users of sizes) {
      config.log(`  seeding users ${seeded}..${users} (and a tenth as many companies)…`);
      await seed(instance, envId, seeded, users);
      seeded = users;
      const entities = users + Math.ceil(users / 10);
      await call(instance, 'POST', `${targeting}/preview`, proposed); // warm: page cache, JIT
      const samples: Array<{ ms: number; heapGrowthMb: number; retainedMb: number }> = [];
      let preview: any;
      for (let r = 0; r < runs; r++) {
        const sample = await withHeapPeak(() => call(instance, 'POST', `${targeting}/preview`, proposed));
        preview = sample.value;
        samples.push({ ms: sample.ms, heapGrowthMb: sample.heapGrowthMb, retainedMb: sample.retainedMb });
        config.log(`  ${entities} entities, run ${r + 1}/${runs}: ${(sample.ms / 1000).toFixed(2)} s, heap +${sample.heapGrowthMb.toFixed(1)} MB`);
      }
      const ms = median(samples.map((s) => s.ms));
      const growth = Math.max(...samples.map((s) => s.heapGrowthMb));
      const heapLimitMb = getHeapStatistics().heap_size_limit / 1e6;
      rows.push([entities, Number((ms / 1000).toFixed(2)), Number(((ms / 1000) * (100_000 / entities)).toFixed(2)), Number(growth.toFixed(1)), Number(Math.max(...samples.map((s) => s.retainedMb)).toFixed(1)), Math.round(heapLimitMb), preview.users.turnedOn, preview.users.turnedOff]);
      data[String(entities)] = { medianMs: ms, secondsPer100k: (ms / 1000) * (100_000 / entities), maxHeapGrowthMb: growth, samples };
    }
  } finally {
    await instance.close();
    await rm(dir, { recursive: true, force: true });
  }
  return {
    title: 'Impact preview over stored entities (SQLite)',
    workload: `POST …/targeting/{envId}/preview, 3 proposed rules, users with 3 attributes and a tenth as many companies; median of ${runs} runs per size`,
    tables: [{ columns: ['entities', 'seconds', 's / 100k entities', 'peak heap growth MB', 'retained after GC MB', 'heap limit MB', 'users turned on', 'users turned off'], rows }],
    notes: [
      'Bar: ≤ 2 s per 100k entities. Entities are read in keyset pages of 1000: nothing is retained after a preview, and the peak is garbage V8 collects when it chooses (run with NODE_OPTIONS=--max-old-space-size=… to see a preview of 1M entities complete under a small heap limit).',
    ],
    data,
  };
}
