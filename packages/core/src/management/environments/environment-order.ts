import { addIssue, notPossible, type Issues } from '../../http/http-error.js';
import type { Repositories } from '../../storage/port.js';
import type { EnvironmentRecord } from '../../storage/records.js';

/**
 * `order` is "the zero-indexed position in the app" (spec), so positions stay 0..n-1 without gaps or ties:
 * placing an environment at a position shifts the others. Only rows whose order actually changes are written.
 */
export async function placeEnvironment(
  tx: Repositories,
  envs: EnvironmentRecord[],
  env: EnvironmentRecord,
  position: number,
): Promise<void> {
  const others = envs.filter((e) => e.id !== env.id);
  others.splice(position, 0, env);
  for (const [order, e] of others.entries()) {
    if (e.order !== order || e.id === env.id) await tx.environments.update(e.id, { order });
  }
}

/** Position must be an existing slot (0..n-1 when moving, 0..n when adding). */
export function checkPosition(position: number, max: number): void {
  if (position > max) {
    const issues: Issues = {};
    addIssue(issues, 'order', `must be between 0 and ${max}`);
    throw notPossible(`order ${position} is beyond the last position (${max})`, issues);
  }
}

/** Environment names are unique in an app (case-insensitively): the in-process client picks environments by name. */
export function checkNameFree(envs: EnvironmentRecord[], name: string, exceptId?: string): void {
  const taken = envs.some((e) => e.id !== exceptId && e.name.toLowerCase() === name.toLowerCase());
  if (taken) throw notPossible(`An environment named "${name}" already exists in this app`, { name: ['already used by another environment'] });
}
