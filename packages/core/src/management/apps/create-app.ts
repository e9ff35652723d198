import { DEFAULT_STAGES } from '../../bootstrap.js';
import { mutate } from '../../domain/mutation.js';
import { newId } from '../../domain/ids.js';
import { newEnvironmentRecord } from '../../domain/new-environment-record.js';
import { defineRoute } from '../../http/route.js';
import { AppSchema, CreateAppBodySchema } from '../../schemas/app.js';
import type { AppRecord, EnvironmentRecord } from '../../storage/records.js';
import { actorOf } from '../access.js';
import { fullApp } from '../views.js';

/**
 * Extension: create an app in the key's organisation, set up like the bootstrap app (Development + Production
 * with SDK keys, default stages, the `All` segment), so it is usable at once. New environments publish a change
 * notice with version 0 so that every process's snapshot cache loads them and their SDK keys work.
 */
export const createAppRoute = defineRoute({
  method: 'POST',
  path: '/apps',
  operationId: 'createApp',
  summary: 'Create an app',
  surface: 'management',
  tags: ['Apps'],
  auth: { kind: 'management', scope: 'admin' },
  body: CreateAppBodySchema,
  response: AppSchema,
  async handle({ body, principal, services }) {
    const actor = actorOf(principal);
    const { result } = await mutate(services, actor, async (tx) => {
      const at = services.now().toISOString();
      const app: AppRecord = {
        id: newId('ap'),
        orgId: actor.orgId,
        name: body.name,
        demo: body.demo ?? false,
        flagKeyFormat: body.flagKeyFormat ?? 'custom',
        createdAt: at,
      };
      await tx.apps.insert(app);
      const envs: EnvironmentRecord[] = [
        { name: 'Development', isProduction: false },
        { name: 'Production', isProduction: true },
      ].map((e, order) => newEnvironmentRecord({ appId: app.id, name: e.name, isProduction: e.isProduction, order, createdAt: at }));
      for (const env of envs) {
        await tx.environments.insert(env);
        tx.publishChange(env.id, 0);
      }
      for (const [order, stage] of DEFAULT_STAGES.entries()) {
        await tx.stages.insert({ id: newId('st'), appId: app.id, name: stage.name, color: stage.color, order });
      }
      await tx.segments.insert({ id: newId('sg'), appId: app.id, name: 'All', type: 'all', filter: { type: 'constant', value: true }, createdAt: at, updatedAt: at });
      tx.recordAudit({ appId: app.id, envId: null, action: 'app.created', targetType: 'app', targetId: app.id, changeDescription: null, before: null, after: app });
      return { app, envs };
    });
    // Read-your-writes: the SDK keys of the new environments work as soon as this answer arrives.
    await Promise.all(result.envs.map((env) => services.snapshots.reload(env.id)));
    return fullApp(services.storage, result.app);
  },
});
