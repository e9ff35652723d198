import { buildIfStale } from '../../packages/dashboard/scripts/build-if-stale.mjs';

/** vitest globalSetup: the dashboard's dist/ matches its sources before any test serves it. */
export default async function setup(): Promise<void> {
  await buildIfStale({ quiet: true });
}
