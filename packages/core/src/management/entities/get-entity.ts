import { notFound } from '../../http/http-error.js';
import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { EntitySchema } from '../../schemas/entity-flag.js';
import { loadApp, loadEnvironment } from '../access.js';
import { entityIdOf, type EntityKind } from '../entity-flags/entity-kind.js';
import { toEntity } from './upsert-entity.js';

/**
 * Extension: read one stored user or company (name, attributes, times), the counterpart of the upsert at the same
 * path. The dashboard looks people up by id with it before showing their flags (rows 8 / 10).
 */
export function getEntityRoute(kind: EntityKind): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: `/apps/{appId}/envs/{envId}/${kind.segment}/{${kind.param}}`,
    operationId: `get${kind.label}`,
    summary: `Get a stored ${kind.type}`,
    surface: 'management',
    tags: ['Entities'],
    auth: { kind: 'management', scope: 'read' },
    params: kind.params,
    response: EntitySchema,
    async handle({ params, principal, services }) {
      const entityId = entityIdOf(kind, params);
      const app = await loadApp(services.storage, principal, params.appId);
      const env = await loadEnvironment(services.storage, app, params.envId);
      const row = await services.storage.entities.get(env.id, kind.type, entityId);
      if (!row) throw notFound(`${kind.label} ${entityId}`);
      return toEntity(row);
    },
  });
}
