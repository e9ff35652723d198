import { mutate } from '../../domain/mutation.js';
import { notPossible } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { PutTargetingBodySchema, TargetingMutationResponseSchema, TargetingParamsSchema } from '../../schemas/targeting.js';
import { actorOf, loadApp, loadEnvironment, loadFlagByKey } from '../access.js';
import { applyTargeting, checkTargetingBody } from './apply-targeting.js';
import { toTargeting } from './targeting-view.js';

/**
 * Extension: replace a flag's rules (and, when `config` / `prerequisites` are sent, its config variants and
 * prerequisites) in one environment. An effective change bumps that environment once and the flag's targeting
 * `version` there; a config change also bumps `configVersion`. Sending what is stored changes nothing and bumps
 * nothing. With `ifVersion`, a targeting that moved on since the editor loaded it is refused.
 */
export const putTargetingRoute = defineRoute({
  method: 'PUT',
  path: '/apps/{appId}/flags/{flagKey}/targeting/{envId}',
  operationId: 'putFlagTargeting',
  summary: "Replace a flag's targeting in an environment",
  surface: 'management',
  tags: ['Targeting'],
  auth: { kind: 'management', scope: 'write:flag:targeting' },
  params: TargetingParamsSchema,
  body: PutTargetingBodySchema,
  response: TargetingMutationResponseSchema,
  async handle({ params, body, principal, services }) {
    const { ifVersion, ...targeting } = body;
    checkTargetingBody(targeting, params.flagKey);
    const app = await loadApp(services.storage, principal, params.appId);
    const { result, versions } = await mutate(services, actorOf(principal), async (tx) => {
      const [flag, env] = await Promise.all([loadFlagByKey(tx, app, params.flagKey), loadEnvironment(tx, app, params.envId)]);
      if (ifVersion !== undefined) {
        const current = (await tx.targeting.get(flag.id, env.id))?.version ?? 0;
        if (current !== ifVersion) {
          throw notPossible('The targeting changed since it was loaded', {
            ifVersion: [`Expected version ${ifVersion}, but the targeting is now at version ${current}: reload it and apply your change again`],
          });
        }
      }
      const at = services.now().toISOString();
      const { record } = await applyTargeting(tx, { app, flag, env, body: targeting, at, audit: { action: 'flag.targeting.updated', changeDescription: null } });
      return { flag, env, record };
    });
    const current = versions[result.env.id] ?? (await services.storage.environments.get(result.env.id))!.flagStateVersion;
    return { targeting: toTargeting(result.flag, result.env, result.record), flagStateVersion: current };
  },
});
