import { defineRoute } from '../../http/route.js';
import { TargetingParamsSchema, TargetingSchema } from '../../schemas/targeting.js';
import { loadApp, loadEnvironment, loadFlagByKey } from '../access.js';
import { toTargeting } from './targeting-view.js';

/** Extension: a flag's rules and config in one environment, as stored (segments referenced, not expanded). */
export const getTargetingRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/flags/{flagKey}/targeting/{envId}',
  operationId: 'getFlagTargeting',
  summary: "Get a flag's targeting in an environment",
  surface: 'management',
  tags: ['Targeting'],
  auth: { kind: 'management', scope: 'read' },
  params: TargetingParamsSchema,
  response: TargetingSchema,
  async handle({ params, principal, services }) {
    const repos = services.storage;
    const app = await loadApp(repos, principal, params.appId);
    const [flag, env] = await Promise.all([loadFlagByKey(repos, app, params.flagKey), loadEnvironment(repos, app, params.envId)]);
    return toTargeting(flag, env, await repos.targeting.get(flag.id, env.id));
  },
});
