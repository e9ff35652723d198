import { mutate } from '../../domain/mutation.js';
import { defineRoute } from '../../http/route.js';
import { EnvironmentParamsSchema, EnvironmentSchema, UpdateEnvironmentBodySchema } from '../../schemas/environment.js';
import type { Patch } from '../../storage/port.js';
import type { EnvironmentRecord } from '../../storage/records.js';
import { actorOf, loadApp, loadEnvironment } from '../access.js';
import { refreshRolloutState } from '../targeting/everyone.js';
import { auditedEnvironment, toEnvironment } from '../views.js';
import { checkNameFree, checkPosition, placeEnvironment } from './environment-order.js';

/**
 * Extension: rename, move, or mark an environment as production. None of this is flag state (no version bump),
 * but the snapshot carries the environment row (the in-process client resolves environments by name), so a
 * notice with the *current* version makes every process reload it.
 */
export const updateEnvironmentRoute = defineRoute({
  method: 'PATCH',
  path: '/apps/{appId}/environments/{envId}',
  operationId: 'updateEnvironment',
  summary: 'Update an environment',
  surface: 'management',
  tags: ['Environments'],
  auth: { kind: 'management', scope: 'admin' },
  params: EnvironmentParamsSchema,
  body: UpdateEnvironmentBodySchema,
  response: EnvironmentSchema,
  async handle({ params, body, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    const { result: changed } = await mutate(services, actorOf(principal), async (tx) => {
      const before = await loadEnvironment(tx, app, params.envId);
      const envs = await tx.environments.listByApp(app.id);
      const patch: Patch<EnvironmentRecord, 'id' | 'appId' | 'createdAt' | 'flagStateVersion'> = {};
      if (body.name !== undefined && body.name !== before.name) {
        checkNameFree(envs, body.name, before.id);
        patch.name = body.name;
      }
      if (body.isProduction !== undefined && body.isProduction !== before.isProduction) patch.isProduction = body.isProduction;
      const moves = body.order !== undefined && body.order !== before.order;
      if (moves) checkPosition(body.order!, envs.length - 1);
      if (!Object.keys(patch).length && !moves) return false;

      if (Object.keys(patch).length) await tx.environments.update(before.id, patch);
      if (moves) await placeEnvironment(tx, envs, before, body.order!);
      if (patch.isProduction !== undefined) await refreshRolloutState(tx, app.id, services.now().toISOString());
      tx.publishChange(before.id, before.flagStateVersion);
      const after = { ...before, ...patch, order: body.order ?? before.order };
      tx.recordAudit({ appId: app.id, envId: before.id, action: 'environment.updated', targetType: 'environment', targetId: before.id, changeDescription: null, before: auditedEnvironment(before), after: auditedEnvironment(after) });
      return true;
    });
    if (changed) await services.snapshots.reload(params.envId);
    return toEnvironment((await services.storage.environments.get(params.envId))!);
  },
});
