import { join } from 'node:path';
import type { StoreSpec } from '../servers/host-config.js';
import { seedStore } from './store-seed.js';

/** Two SQLite files for the memory and startup benchmarks: bootstrapped only, and with `flags` flags × 3 envs. */
export async function seededPair(dir: string, flags: number): Promise<{ empty: StoreSpec; large: StoreSpec; seedMs: number; environments: number }> {
  const empty: StoreSpec = { kind: 'sqlite', filename: join(dir, 'empty.db') };
  const large: StoreSpec = { kind: 'sqlite', filename: join(dir, `flags-${flags}.db`) };
  // Nothing but the store's (unref'ed) handles is alive while seeding: hold the event loop open.
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    await seedStore(empty, 0);
    const start = performance.now();
    const { environments } = await seedStore(large, flags);
    return { empty, large, seedMs: performance.now() - start, environments };
  } finally {
    clearInterval(keepAlive);
  }
}
