import { mutate } from '../../domain/mutation.js';
import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { applyEntityUpserts } from '../../ingestion/apply-entity-upserts.js';
import { invalidateRemoteContext } from '../../runtime/context/remote-context.js';
import { EntitySchema, UpsertEntityBodySchema, type Entity } from '../../schemas/entity-flag.js';
import type { EntityRecord } from '../../storage/records.js';
import { actorOf, loadApp, loadEnvironment } from '../access.js';
import { entityIdOf, type EntityKind } from '../entity-flags/entity-kind.js';

export const toEntity = (row: EntityRecord): Entity => ({
  id: row.id,
  name: row.name,
  attributes: row.attributes,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * Extension (the client library's upsertUser / upsertCompany): synchronous — the entity is committed when the
 * answer arrives, so a targeting update sent next finds it. Attributes are merged into the stored ones, key by key,
 * exactly as runtime `POST /user` merges them (one merge function). `name: null` clears the name, an absent name
 * keeps it. Attributes are not flag state: no version moves.
 */
export function upsertEntityRoute(kind: EntityKind): RouteDefinition {
  return defineRoute({
    method: 'PUT',
    path: `/apps/{appId}/envs/{envId}/${kind.segment}/{${kind.param}}`,
    operationId: `upsert${kind.label}`,
    summary: `Create or update a ${kind.type}`,
    surface: 'management',
    tags: ['Entities'],
    auth: { kind: 'management', scope: 'write:entities' },
    params: kind.params,
    body: UpsertEntityBodySchema,
    response: EntitySchema,
    async handle({ params, body, principal, services }) {
      const entityId = entityIdOf(kind, params);
      const app = await loadApp(services.storage, principal, params.appId);
      const { result } = await mutate(services, actorOf(principal), async (tx) => {
        const env = await loadEnvironment(tx, app, params.envId);
        const before = await tx.entities.get(env.id, kind.type, entityId);
        const [row] = await applyEntityUpserts(tx, [
          {
            envId: env.id,
            type: kind.type,
            id: entityId,
            ...(body?.name !== undefined ? { name: body.name } : {}),
            attributes: body?.attributes ?? {},
            at: services.now().toISOString(),
          },
        ]);
        tx.recordAudit({ appId: app.id, envId: env.id, action: `${kind.type}.upserted`, targetType: kind.type, targetId: entityId, changeDescription: null, before: before ?? null, after: row! });
        return row!;
      });
      // Remote context must see the new attributes on the very next evaluation, not after the cache's TTL.
      invalidateRemoteContext(services, [{ envId: result.envId, type: kind.type, id: entityId }]);
      return toEntity(result);
    },
  });
}
