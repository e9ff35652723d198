import { mutate } from '../../domain/mutation.js';
import { newPublishableKey, newSecretKey } from '../../domain/ids.js';
import { defineRoute } from '../../http/route.js';
import { EnvironmentParamsSchema, EnvironmentSchema, RotateKeysBodySchema } from '../../schemas/environment.js';
import { actorOf, loadApp, loadEnvironment } from '../access.js';
import { toEnvironment } from '../views.js';

/**
 * Extension: replace the publishable key, the secret key or both. The old key stops working as soon as the change
 * notice (current version, not a bump: flag state is unchanged) has reloaded the SDK key index — at once in this
 * process, which reloads before answering.
 */
export const rotateKeysRoute = defineRoute({
  method: 'POST',
  path: '/apps/{appId}/environments/{envId}/rotate-keys',
  operationId: 'rotateEnvironmentKeys',
  summary: 'Rotate the SDK keys of an environment',
  surface: 'management',
  tags: ['Environments'],
  auth: { kind: 'management', scope: 'admin' },
  params: EnvironmentParamsSchema,
  body: RotateKeysBodySchema,
  response: EnvironmentSchema,
  async handle({ params, body, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    await mutate(services, actorOf(principal), async (tx) => {
      const env = await loadEnvironment(tx, app, params.envId);
      const patch: { publishableKey?: string; secretKey?: string } = {};
      if (body.which !== 'secret') patch.publishableKey = newPublishableKey();
      if (body.which !== 'publishable') patch.secretKey = newSecretKey();
      await tx.environments.update(env.id, patch);
      tx.publishChange(env.id, env.flagStateVersion);
      // The audit names which keys changed, never the keys.
      tx.recordAudit({ appId: app.id, envId: env.id, action: 'environment.keysRotated', targetType: 'environment', targetId: env.id, changeDescription: null, before: null, after: { which: body.which } });
    });
    await services.snapshots.reload(params.envId);
    return toEnvironment((await services.storage.environments.get(params.envId))!);
  },
});
