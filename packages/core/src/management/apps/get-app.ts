import { defineRoute } from '../../http/route.js';
import { AppSchema } from '../../schemas/app.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { loadApp } from '../access.js';
import { fullApp } from '../views.js';

/** Row 2: the app with its environments (SDK keys included), stages and segments. */
export const getAppRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}',
  operationId: 'getApp',
  summary: 'Get an app',
  surface: 'management',
  tags: ['Apps'],
  auth: { kind: 'management', scope: 'read' },
  params: AppParamsSchema,
  response: AppSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return fullApp(services.storage, app);
  },
});
