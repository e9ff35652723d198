import { ensureInstalled } from '../../scripts/ensure-installed.mjs';

/**
 * The peers only the benchmarks use (Unleash, LaunchDarkly, GrowthBook, …) live in bench's own package and lockfile,
 * outside the root's workspaces, so that `npm ci` for the example app and the tests stays small and runs no peer's
 * install script. They are installed here, on the first `npm run bench` and again after the lockfile changes.
 */
export function ensureBenchPeers(): void {
  ensureInstalled('bench', 'the benchmark peers');
}
