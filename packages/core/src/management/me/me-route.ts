import { defineRoute } from '../../http/route.js';
import { roleIn, type Person, type Role } from '../../host/person.js';
import { MeResponseSchema, type MeResponse } from '../../schemas/me.js';
import type { Services } from '../../services.js';
import { managementKeyOf } from '../access.js';

/**
 * Extension: who the caller is, a person signed in by the host or a management key. Any valid caller may ask (no
 * scope): the dashboard learns from it who is signed in and which environments it may change.
 */
export const getMeRoute = defineRoute({
  method: 'GET',
  path: '/me',
  operationId: 'getMe',
  summary: 'The signed-in person or the management key making the request',
  surface: 'management',
  tags: ['Members'],
  auth: { kind: 'management', scope: 'any' },
  response: MeResponseSchema,
  handle({ principal, services }): MeResponse {
    if (principal.kind === 'person') return { actor: personActor(services, principal.person) };
    const key = managementKeyOf(principal);
    return { actor: { type: 'key', id: key.id, name: key.name, scopes: [...key.scopes] } };
  },
});

/** The person with `environments` resolved to ids: every known environment where their role is not `role`. */
function personActor(services: Services, person: Person): MeResponse['actor'] {
  const actor: MeResponse['actor'] = { type: 'person', id: person.id, name: person.name, role: person.role };
  if (person.email !== undefined) actor.email = person.email;
  if (person.environments) {
    const environments: Record<string, Role> = {};
    for (const state of services.snapshots.all()) {
      const role = roleIn(person, state.environment);
      if (role !== person.role) environments[state.environment.id] = role;
    }
    if (Object.keys(environments).length) actor.environments = environments;
  }
  return actor;
}
