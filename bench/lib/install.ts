import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('..', import.meta.url));
const lockfile = `${benchDir}package-lock.json`;
/** npm writes this after every install: when it is older than the lockfile, the lockfile changed since. */
const installed = `${benchDir}node_modules/.package-lock.json`;

/**
 * The peers only the benchmarks use (Unleash, LaunchDarkly, GrowthBook, …) live in bench's own package and lockfile,
 * outside the root's workspaces, so that `npm ci` for the example app and the tests stays small and runs no peer's
 * install script. They are installed here, on the first `npm run bench` and again after the lockfile changes.
 */
export function ensureBenchPeers(): void {
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lockfile).mtimeMs) return;
  console.log('installing the benchmark peers into bench/node_modules (npm ci --prefix bench; once)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', benchDir, '--no-audit', '--no-fund'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    throw new Error(`npm ci --prefix bench failed (${result.error?.message ?? `exit ${result.status}`}); run it by hand to see why`);
  }
}
