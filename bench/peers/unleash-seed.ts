import { FIELDS, SEGMENTS, seedOrder, type Condition, type MixFlag } from './flag-mix.js';

/**
 * Configures Unleash through its admin API with the same flags: context fields, segments, then per flag a
 * `flexibleRollout` strategy in `development` (constraints for attribute rules, a segment for segment rules,
 * the rollout percentage on `userId` for rollout rules), and the environment switched on (off for constant-off).
 */
export interface UnleashTarget {
  origin: string;
  adminToken: string;
}

async function call(target: UnleashTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${target.origin}${path}`, {
    method,
    headers: { authorization: target.adminToken, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Unleash ${method} ${path} → ${response.status} ${text.slice(0, 500)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

const constraint = (c: Condition) => ({ contextName: FIELDS[c.field], operator: 'IN', values: c.values, caseInsensitive: false, inverted: false });

export async function seedUnleash(target: UnleashTarget, flags: MixFlag[]): Promise<void> {
  for (const name of Object.values(FIELDS)) {
    await call(target, 'POST', '/api/admin/context', { name, description: 'benchmark', stickiness: false });
  }
  const segmentIds: number[] = [];
  for (const segment of SEGMENTS) {
    const created = (await call(target, 'POST', '/api/admin/segments', {
      name: segment.name,
      constraints: [constraint(segment.condition)],
    })) as { id: number };
    segmentIds.push(created.id);
  }
  const project = '/api/admin/projects/default/features';
  for (const flag of seedOrder(flags)) {
    await call(target, 'POST', project, { name: flag.key, type: 'release' });
    if (flag.kind === 'constant' && !flag.on) continue; // disabled in the environment: never enabled
    const strategy = {
      name: 'flexibleRollout',
      parameters: { rollout: flag.kind === 'rollout' ? String(flag.percent) : '100', stickiness: 'userId', groupId: flag.key },
      constraints: flag.kind === 'attribute' ? [constraint(flag.condition)] : [],
      segments: flag.kind === 'segment' ? [segmentIds[flag.segment]] : [],
    };
    await call(target, 'POST', `${project}/${flag.key}/environments/development/strategies`, strategy);
    await call(target, 'POST', `${project}/${flag.key}/environments/development/on`);
  }
}
