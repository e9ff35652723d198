import { fileURLToPath } from 'node:url';
import type { BenchModule, StoredResult } from './lib/result.js';
import { ensureBenchPeers } from './lib/install.js';
import { environment, saveResults } from './lib/results.js';
import { cpuTimes, stealPercent } from './lib/steal.js';
import { textTable } from './lib/table.js';

/**
 * `npm run bench` runs every benchmark below; `npm run bench -- eval` runs the named ones. Add a bench by adding
 * an entry: a module whose default export is `async function run(): Promise<BenchResult>`.
 */
const benches: Record<string, () => Promise<BenchModule>> = {
  eval: () => import('./eval.js'),
  'http-evaluate': () => import('./http-evaluate.js'),
  ingestion: () => import('./ingestion.js'),
  memory: () => import('./memory.js'),
  preview: () => import('./preview.js'),
  propagation: () => import('./propagation.js'),
  'request-client': () => import('./request-client.js'),
  startup: () => import('./startup.js'),
};

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

async function main(): Promise<void> {
  const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const unknown = requested.filter((name) => !(name in benches));
  if (unknown.length > 0) {
    console.error(`unknown bench: ${unknown.join(', ')}; available: ${Object.keys(benches).join(', ')}`);
    process.exitCode = 1;
    return;
  }
  const names = requested.length > 0 ? requested : Object.keys(benches);
  ensureBenchPeers();
  const results: Record<string, StoredResult> = {};
  for (const name of names) {
    console.log(`\n▶ ${name}`);
    const module = await benches[name]!();
    const measuredAt = new Date().toISOString();
    const before = cpuTimes();
    const result = await module.default();
    const steal = stealPercent(before, cpuTimes());
    // Sampled as each bench ends, so the load average is that bench's, not the last one's.
    results[name] = { ...result, measuredAt, environment: { ...environment(), ...(steal === undefined ? {} : { stealPercent: steal }) } };
    console.log(`\n${result.title}\n${result.workload}\n`);
    for (const table of result.tables) console.log(textTable(table) + '\n');
    for (const note of result.notes ?? []) console.log(`- ${note}`);
    if (steal !== undefined) console.log(`- host CPU steal during this bench: ${steal} %`);
  }
  await saveResults(here('./results.json'), here('./RESULTS.md'), results, Object.keys(benches));
  console.log(`\nwrote bench/RESULTS.md and bench/results.json (${names.join(', ')})`);
}

await main();
