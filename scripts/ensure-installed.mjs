// Packages of their own outside the root's workspaces (bench/, tools/build/) hold what one command needs and
// nothing else does: the benchmark peers, the build tools. That command installs them on first use, so the root's
// `npm ci` stays small. Kept in plain JavaScript so that `npm run build` needs no TypeScript runner.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Runs `npm ci --prefix <dir>` when `dir` has no node_modules yet, or its lockfile changed since the last install
 * (npm writes node_modules/.package-lock.json after each one). `dir` is relative to the repository root.
 */
export function ensureInstalled(dir, what) {
  const root = fileURLToPath(new URL(`../${dir}/`, import.meta.url));
  const installed = `${root}node_modules/.package-lock.json`;
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(`${root}package-lock.json`).mtimeMs) return;
  process.stdout.write(`installing ${what} into ${dir}/node_modules (npm ci --prefix ${dir}; once)…\n`);
  const windows = process.platform === 'win32';
  const result = spawnSync(windows ? 'npm.cmd' : 'npm', ['ci', '--prefix', root, '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    shell: windows,
  });
  if (result.status !== 0) {
    throw new Error(`npm ci --prefix ${dir} failed (${result.error?.message ?? `exit ${result.status}`}); run it by hand to see why`);
  }
}
