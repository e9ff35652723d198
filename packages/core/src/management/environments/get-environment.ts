import { defineRoute } from '../../http/route.js';
import { EnvironmentParamsSchema, EnvironmentSchema } from '../../schemas/environment.js';
import { loadApp, loadEnvironment } from '../access.js';
import { toEnvironment } from '../views.js';

/** Row 5: the environment with its SDK keys (sdkAccess). */
export const getEnvironmentRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/environments/{envId}',
  operationId: 'getEnvironment',
  summary: 'Get an environment',
  surface: 'management',
  tags: ['Environments'],
  auth: { kind: 'management', scope: 'read' },
  params: EnvironmentParamsSchema,
  response: EnvironmentSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return toEnvironment(await loadEnvironment(services.storage, app, params.envId));
  },
});
