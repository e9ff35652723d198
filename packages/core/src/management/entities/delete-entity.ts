import { mutate, type MutationTx } from '../../domain/mutation.js';
import { bumpTargetingVersion } from '../../domain/prerequisite-graph.js';
import { invalidateRemoteContext } from '../../runtime/context/remote-context.js';
import { notFound } from '../../http/http-error.js';
import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { DeleteCompanyQuerySchema, DeleteEntityResponseSchema } from '../../schemas/entity-flag.js';
import type { AppRecord, EntityType, EnvironmentRecord } from '../../storage/records.js';
import { actorOf, loadApp, loadEnvironment } from '../access.js';
import { entityIdOf, type EntityKind } from '../entity-flags/entity-kind.js';

/**
 * Deletes one entity with its memberships, stats and specific-targeting overrides. Removing overrides changes what
 * `/features` serves, so the environment is marked for its one bump and each affected flag's targeting version
 * moves. Resolves false when there was neither an entity nor an override under that id.
 */
async function deleteOne(tx: MutationTx, app: AppRecord, env: EnvironmentRecord, type: EntityType, id: string, at: string): Promise<boolean> {
  const [entity, overrides] = await Promise.all([tx.entities.get(env.id, type, id), tx.specificTargets.listForEntity(env.id, type, id)]);
  if (!entity && !overrides.length) return false;
  for (const override of overrides) {
    await tx.specificTargets.remove(override.flagId, env.id, type, id);
    const flag = await tx.flags.get(override.flagId);
    if (flag) await bumpTargetingVersion(tx, app.id, flag, env.id, at);
  }
  if (overrides.length) tx.changesFlagState(env.id);
  await tx.entities.delete(env.id, type, id);
  tx.recordAudit({ appId: app.id, envId: env.id, action: `${type}.deleted`, targetType: type, targetId: id, changeDescription: null, before: entity ?? null, after: null });
  return true;
}

/**
 * Extension (deleteUser / deleteCompany). 404 when nothing is stored under the id. `?deleteUsers=true` on a company
 * also deletes the users that belong to it (read before the company's memberships go); `deletedUserIds` names those
 * that were stored (as an entity or by overrides) and are now gone.
 */
export function deleteEntityRoute(kind: EntityKind): RouteDefinition {
  return defineRoute({
    method: 'DELETE',
    path: `/apps/{appId}/envs/{envId}/${kind.segment}/{${kind.param}}`,
    operationId: `delete${kind.label}`,
    summary: `Delete a ${kind.type}`,
    surface: 'management',
    tags: ['Entities'],
    auth: { kind: 'management', scope: 'write:entities' },
    params: kind.params,
    ...(kind.type === 'company' ? { query: DeleteCompanyQuerySchema } : {}),
    response: DeleteEntityResponseSchema,
    async handle({ params, query, principal, services }) {
      const entityId = entityIdOf(kind, params);
      const deleteUsers = kind.type === 'company' && (query as { deleteUsers?: boolean }).deleteUsers === true;
      const app = await loadApp(services.storage, principal, params.appId);
      const { result, versions } = await mutate(services, actorOf(principal), async (tx) => {
        const env = await loadEnvironment(tx, app, params.envId);
        const at = services.now().toISOString();
        const userIds = deleteUsers ? await tx.entities.listCompanyUsers(env.id, entityId) : [];
        if (!(await deleteOne(tx, app, env, kind.type, entityId, at))) throw notFound(`${kind.label} ${entityId}`);
        const deletedUserIds: string[] = [];
        for (const userId of userIds) if (await deleteOne(tx, app, env, 'user', userId, at)) deletedUserIds.push(userId);
        return { env, userIds: deletedUserIds };
      });
      invalidateRemoteContext(services, [
        { envId: result.env.id, type: kind.type, id: entityId },
        ...result.userIds.map((id) => ({ envId: result.env.id, type: 'user' as const, id })),
      ]);
      const flagStateVersion = versions[result.env.id] ?? (await services.storage.environments.get(result.env.id))!.flagStateVersion;
      return {
        id: entityId,
        deleted: true as const,
        ...(kind.type === 'company' ? { deletedUserIds: result.userIds } : {}),
        flagStateVersion,
      };
    },
  });
}
