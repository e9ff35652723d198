import { ALL_SCOPES } from '../options.js';
import type { ManagementScope } from '../storage/records.js';

/** What a host's sign-in makes of a person: `admin` (everything), `editor` (flags, targeting, entities), `viewer` (read). */
export type Role = 'admin' | 'editor' | 'viewer';

/**
 * The signed-in person a mount's `authenticate(hostRequest)` returns. `environments` narrows or widens the role in
 * some environments, keyed by environment id or name (names match in any case): `{ Production: 'viewer' }` makes an
 * editor read-only there.
 */
export interface HostPerson {
  id: string | number;
  name: string;
  email?: string | null;
  role: Role;
  environments?: Record<string, Role>;
}

/** A person as checked: id a string, email absent rather than null. */
export interface Person {
  id: string;
  name: string;
  email?: string;
  role: Role;
  environments?: Record<string, Role>;
}

export const ROLE_SCOPES: Readonly<Record<Role, readonly ManagementScope[]>> = {
  admin: ALL_SCOPES,
  editor: ['read', 'write:flags', 'write:flag:targeting', 'write:entities'],
  viewer: ['read'],
};

const RANK: Readonly<Record<Role, number>> = { viewer: 0, editor: 1, admin: 2 };
const isRole = (value: unknown): value is Role => value === 'admin' || value === 'editor' || value === 'viewer';
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * The person `authenticate` returned, or why it is not one. A host's bug (a missing role, a number for a name)
 * must never sign anybody in with more than they were given, so anything off is refused whole.
 */
export function checkPerson(value: unknown): Person | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not an object';
  const v = value as Record<string, unknown>;
  const id = typeof v['id'] === 'number' && Number.isFinite(v['id']) ? String(v['id']) : v['id'];
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) return 'id must be a string of 1 to 128 characters';
  const name = v['name'];
  if (typeof name !== 'string' || !name.trim() || name.length > 255) return 'name must be a non-empty string of at most 255 characters';
  const email = v['email'];
  if (email !== undefined && email !== null && (typeof email !== 'string' || email.length > 320 || !EMAIL.test(email))) {
    return 'email must be an email address';
  }
  if (!isRole(v['role'])) return 'role must be "admin", "editor" or "viewer"';
  const person: Person = { id, name, role: v['role'], ...(typeof email === 'string' ? { email } : {}) };
  const environments = v['environments'];
  if (environments !== undefined && environments !== null) {
    if (typeof environments !== 'object' || Array.isArray(environments)) return 'environments must map environments to roles';
    const roles = Object.entries(environments as Record<string, unknown>);
    if (!roles.every(([, role]) => isRole(role))) return 'environments must map environments to roles';
    if (roles.length) person.environments = Object.fromEntries(roles) as Record<string, Role>;
  }
  return person;
}

/** The person's role in one environment: the entry naming it by id, else by name, else the person's role. */
export function roleIn(person: Person, env: { id: string; name: string } | undefined): Role {
  const roles = person.environments;
  if (!roles || !env) return person.role;
  const byId = roles[env.id];
  if (byId) return byId;
  const name = env.name.toLowerCase();
  for (const key in roles) if (key.toLowerCase() === name) return roles[key]!;
  return person.role;
}

/**
 * The role for what touches no single environment or every one of them (flags, segments, the app): the lowest the
 * person holds anywhere, so that a viewer of Production cannot change Production through an app-wide write.
 */
export function lowestRole(person: Person): Role {
  let lowest = person.role;
  for (const role of Object.values(person.environments ?? {})) if (RANK[role] < RANK[lowest]) lowest = role;
  return lowest;
}

export const roleHolds = (role: Role, scope: ManagementScope): boolean => ROLE_SCOPES[role].includes(scope);
