import { seedOrder, type MixFlag } from './flag-mix.js';
import { flagmountRules, segmentFilters } from './flagmount-rules.js';

/**
 * Configures a running Flagmount through its own management API (the way an operator would): segments, flags,
 * then each flag's targeting in one environment.
 */
export interface FlagmountTarget {
  /** `http://127.0.0.1:PORT/flags` */
  base: string;
  managementKey: string;
  appId: string;
  envId: string;
}

async function call(target: FlagmountTarget, method: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${target.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.managementKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

export async function seedFlagmountHttp(target: FlagmountTarget, flags: MixFlag[]): Promise<void> {
  const segmentIds: string[] = [];
  for (const segment of segmentFilters()) {
    const created = (await call(target, 'POST', `/apps/${target.appId}/segments`, segment)) as { segment: { id: string } };
    segmentIds.push(created.segment.id);
  }
  for (const flag of seedOrder(flags)) {
    await call(target, 'POST', `/apps/${target.appId}/flags`, { key: flag.key, name: flag.key });
    await call(target, 'PUT', `/apps/${target.appId}/flags/${encodeURIComponent(flag.key)}/targeting/${target.envId}`, {
      rules: flagmountRules(flag, segmentIds),
    });
  }
}
