import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { AppEnvParamsSchema } from '../../schemas/common.js';
import { ENTITY_SEARCH_LIMIT_DEFAULT, ListEntitiesQuerySchema, ListEntitiesResponseSchema } from '../../schemas/entity-flag.js';
import { loadApp, loadEnvironment } from '../access.js';
import type { EntityKind } from '../entity-flags/entity-kind.js';
import { toEntity } from './upsert-entity.js';

/**
 * Extension: the stored users or companies of an environment, by id, optionally only those whose id starts with
 * (or whose name contains) `search`; paged by id. What the dashboard's Users and Companies pages search.
 */
export function listEntitiesRoute(kind: EntityKind): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: `/apps/{appId}/envs/{envId}/${kind.segment}`,
    operationId: `list${kind.label === 'User' ? 'Users' : 'Companies'}`,
    summary: `Search the stored ${kind.segment}`,
    surface: 'management',
    tags: ['Entities'],
    auth: { kind: 'management', scope: 'read' },
    params: AppEnvParamsSchema,
    query: ListEntitiesQuerySchema,
    response: ListEntitiesResponseSchema,
    async handle({ params, query, principal, services }) {
      const app = await loadApp(services.storage, principal, params.appId);
      const env = await loadEnvironment(services.storage, app, params.envId);
      const limit = query.limit ?? ENTITY_SEARCH_LIMIT_DEFAULT;
      // One extra row tells whether another page exists without a count query.
      const rows = await services.storage.entities.search(env.id, kind.type, {
        search: query.search ?? '',
        limit: limit + 1,
        ...(query.after !== undefined ? { after: query.after } : {}),
      });
      const page = rows.slice(0, limit);
      return { data: page.map(toEntity), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
    },
  });
}
