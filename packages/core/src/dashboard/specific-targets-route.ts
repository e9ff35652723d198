import { Type } from '@sinclair/typebox';
import { defineRoute, type RouteDefinition } from '../http/route.js';
import { loadApp, loadEnvironment, loadFlagByKey } from '../management/access.js';
import { TargetingParamsSchema } from '../schemas/targeting.js';

export const SpecificTargetsResponseSchema = Type.Object(
  {
    flagKey: Type.String(),
    envId: Type.String(),
    users: Type.Array(Type.String(), { description: 'User ids targeted directly (rows 11), ascending' }),
    companies: Type.Array(Type.String(), { description: 'Company ids targeted directly (rows 9), ascending' }),
  },
  { additionalProperties: false, $id: 'SpecificTargets' },
);

/**
 * Extension: the users and companies a flag targets directly in one environment. Rows 8–11 answer per entity;
 * the dashboard needs the other direction (per flag), which only the store's override table knows.
 */
const getSpecificTargets = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/flags/{flagKey}/specific-targets/{envId}',
  operationId: 'getFlagSpecificTargets',
  summary: 'The users and companies a flag targets directly in an environment',
  surface: 'management',
  tags: ['Targeting'],
  auth: { kind: 'management', scope: 'read' },
  params: TargetingParamsSchema,
  response: SpecificTargetsResponseSchema,
  async handle({ services, principal, params }) {
    const { storage } = services;
    const app = await loadApp(storage, principal, params.appId);
    const [flag, env] = await Promise.all([
      loadFlagByKey(storage, app, params.flagKey),
      loadEnvironment(storage, app, params.envId),
    ]);
    const targets = (await storage.specificTargets.listByEnv(env.id)).filter((t) => t.flagId === flag.id);
    const ids = (type: 'user' | 'company') =>
      targets
        .filter((t) => t.entityType === type)
        .map((t) => t.entityId)
        .sort();
    return { flagKey: flag.key, envId: env.id, users: ids('user'), companies: ids('company') };
  },
});

export const specificTargetsRoutes: RouteDefinition[] = [getSpecificTargets];
