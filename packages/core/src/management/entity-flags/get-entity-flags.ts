import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { EntityFlagsResponseSchema } from '../../schemas/entity-flag.js';
import { loadApp, loadEntity, loadEnvironment } from '../access.js';
import { entityFlagsPage } from './entity-flags-view.js';
import { entityIdOf, type EntityKind } from './entity-kind.js';

/**
 * Rows 8 and 10. The user or company is the parent of its flags: one that was never stored (by a management
 * upsert, `POST /user`/`/company` or their `/bulk` items) is a 404, as the spec says for a missing parent.
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
      const entity = await loadEntity(services.storage, env, kind.type, entityIdOf(kind, params));
      return entityFlagsPage(services, app, env, entity);
    },
  });
}
