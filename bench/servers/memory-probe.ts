/**
 * Child process (run with --expose-gc): opens a seeded store with createFlagmount, waits until every
 * environment's snapshot is loaded and compiled, evaluates every flag once in every environment, then reports
 * RSS and heap after full GCs. argv[2] = JSON { store }.
 */
import { createFlagmount, type Flagmount } from '@flagmount/core';
import { fail, report } from './child.js';
import { BENCH_KEYS, type StoreSpec } from './host-config.js';
import { openStore } from './stores.js';

const gc = (globalThis as { gc?: () => void }).gc;

async function settle(): Promise<NodeJS.MemoryUsage> {
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage();
}

/**
 * Not inline in `main`: a suspended async function keeps its stale locals, and the last `getFlags` result (an object
 * of 10,000 flags with their closures, about 13 MB) would then be counted as the instance's memory.
 */
function evaluateEverything(instance: Flagmount, environments: readonly { id: string }[]): { evaluated: number; enabled: number } {
  let evaluated = 0;
  let enabled = 0;
  for (const env of environments) {
    const flags = instance.clientFor(env.id).getFlags({
      user: { id: 'user-1', plan: 'pro', country: 'de' },
      company: { id: 'company-1', tier: 'enterprise' },
      enableTracking: false,
    });
    for (const flag of Object.values(flags)) {
      evaluated++;
      if (flag.isEnabled) enabled++;
    }
  }
  return { evaluated, enabled };
}

async function main(): Promise<void> {
  const { store } = JSON.parse(process.argv[2]!) as { store: StoreSpec };
  const instance = await createFlagmount({
    storage: await openStore(store),
    bootstrap: { managementKey: BENCH_KEYS.managementKey },
  });
  const environments = await instance.services.storage.environments.listByApp(instance.bootstrap!.appId);
  const { evaluated, enabled } = evaluateEverything(instance, environments);
  const memory = await settle();
  report({ type: 'result', memory, environments: environments.length, evaluated, enabled });
  await instance.close();
  process.disconnect?.();
}

main().catch(fail);
