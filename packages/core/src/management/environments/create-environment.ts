import { mutate } from '../../domain/mutation.js';
import { newEnvironmentRecord } from '../../domain/new-environment-record.js';
import { defineRoute } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { CreateEnvironmentBodySchema, EnvironmentSchema } from '../../schemas/environment.js';
import { actorOf, loadApp } from '../access.js';
import { refreshRolloutState } from '../targeting/everyone.js';
import { auditedEnvironment, toEnvironment } from '../views.js';
import { checkNameFree, checkPosition, placeEnvironment } from './environment-order.js';

/**
 * Extension: add an environment (flagStateVersion 0, fresh SDK keys). It publishes a change notice so every
 * process's snapshot cache loads it (and its SDK keys) without waiting for a poll.
 */
export const createEnvironmentRoute = defineRoute({
  method: 'POST',
  path: '/apps/{appId}/environments',
  operationId: 'createEnvironment',
  summary: 'Create an environment',
  surface: 'management',
  tags: ['Environments'],
  auth: { kind: 'management', scope: 'admin' },
  params: AppParamsSchema,
  body: CreateEnvironmentBodySchema,
  response: EnvironmentSchema,
  async handle({ params, body, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    const { result: envId } = await mutate(services, actorOf(principal), async (tx) => {
      const envs = await tx.environments.listByApp(app.id);
      checkNameFree(envs, body.name);
      const position = body.order ?? envs.length;
      checkPosition(position, envs.length);
      const at = services.now().toISOString();
      const env = newEnvironmentRecord({ appId: app.id, name: body.name, isProduction: body.isProduction ?? false, order: position, createdAt: at });
      await tx.environments.insert(env);
      await placeEnvironment(tx, envs, env, position);
      // A new production environment has no rules yet: no flag is rolled out to everyone in production any more.
      if (env.isProduction) await refreshRolloutState(tx, app.id, at);
      tx.publishChange(env.id, 0);
      tx.recordAudit({ appId: app.id, envId: env.id, action: 'environment.created', targetType: 'environment', targetId: env.id, changeDescription: null, before: null, after: auditedEnvironment(env) });
      return env.id;
    });
    await services.snapshots.reload(envId);
    return toEnvironment((await services.storage.environments.get(envId))!);
  },
});
