import type { Actor, ManagementScope, Role } from '../api/types.js';

const ROLE_SCOPES: Record<Role, readonly ManagementScope[]> = {
  admin: ['read', 'write:flags', 'write:flag:targeting', 'write:entities', 'admin'],
  editor: ['read', 'write:flags', 'write:flag:targeting', 'write:entities'],
  viewer: ['read'],
};

/**
 * Whether the actor may do what `scope` guards (in `envId`, when the action is about one environment). The server
 * decides; this only keeps a viewer from being offered buttons that would answer 403. A key whose scopes are
 * unknown (a server without `/me`) is offered everything, and the server's 403 is shown where it happens.
 */
export function can(actor: Actor, scope: ManagementScope, envId?: string): boolean {
  if (actor.type === 'key') return actor.scopes === null || actor.scopes.includes('admin') || actor.scopes.includes(scope);
  const role = (envId && actor.environments?.[envId]) || actor.role;
  return ROLE_SCOPES[role].includes(scope);
}
