import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { EntityFlagsResponseSchema } from '../../schemas/entity-flag.js';
import { loadApp, loadEnvironment } from '../access.js';
import { entityFlagsPage } from './entity-flags-view.js';
import { entityIdOf, type EntityKind } from './entity-kind.js';

/**
 * Rows 8 and 10. The entity need not be stored: an unknown user still gets every flag, evaluated on its id alone
 * (it may be targeted by id before it is ever seen).
 */
export function getEntityFlagsRoute(kind: EntityKind): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: `/apps/{appId}/envs/{envId}/${kind.segment}/{${kind.param}}/flags`,
    operationId: `get${kind.label}Flags`,
    summary: `Read the flags of a ${kind.type}`,
    surface: 'management',
    tags: ['Entity flags'],
    auth: { kind: 'management', scope: 'read' },
    params: kind.params,
    response: EntityFlagsResponseSchema,
    async handle({ params, principal, services }) {
      const app = await loadApp(services.storage, principal, params.appId);
      const env = await loadEnvironment(services.storage, app, params.envId);
      return entityFlagsPage(services, app, env, kind.type, entityIdOf(kind, params));
    },
  });
}
