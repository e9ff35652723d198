// Builds the dashboard into dist/ unless dist/ was built from exactly these sources. Run by the root `prepare`
// (after `npm ci`), `prestart` and the tests' globalSetup, so neither `npm start` nor `npm test` can serve a
// stale or missing build. Parallel callers (two test runs) take turns through a lock directory.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stampFile = join(dist, '.source-hash');
const lock = join(root, '.build-lock');
const INPUTS = ['src', 'index.html', 'vite.config.ts', 'package.json'];

async function files(path) {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const entries = await readdir(path);
  return (await Promise.all(entries.sort().map((e) => files(join(path, e))))).flat();
}

async function sourceHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of await files(join(root, input))) {
      hash.update(file.slice(root.length)).update('\0').update(await readFile(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

const builtHash = () => readFile(stampFile, 'utf8').catch(() => '');

async function withLock(fn) {
  for (let waited = 0; ; waited += 200) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      // A build takes seconds; a lock this old was left by a killed process.
      if (age > 180_000) await rm(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

export async function buildIfStale({ quiet = false } = {}) {
  const wanted = await sourceHash();
  if ((await builtHash()) === wanted) return false;
  return withLock(async () => {
    if ((await builtHash()) === wanted) return false;
    const { build } = await import('vite');
    const tmp = join(root, `.dist-${process.pid}`);
    await build({ configFile: join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info', build: { outDir: tmp } });
    await writeFile(join(tmp, '.source-hash'), wanted);
    // Swapped in whole: a server starting meanwhile reads the old build or the new one, never half of each.
    const old = join(root, `.dist-old-${process.pid}`);
    await rename(dist, old).catch(() => {});
    await rename(tmp, dist);
    await rm(old, { recursive: true, force: true });
    return true;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildIfStale();
  if (!built) process.stdout.write('@flagmount/dashboard: dist is up to date\n');
}
