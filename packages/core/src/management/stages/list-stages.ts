import { defineRoute } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { ListStagesResponseSchema } from '../../schemas/stage.js';
import { loadApp } from '../access.js';
import { toStageHeader } from '../views.js';

/** Extension: the stages of an app, by order then id. */
export const listStagesRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/stages',
  operationId: 'listStages',
  summary: 'List the stages of an app',
  surface: 'management',
  tags: ['Stages'],
  auth: { kind: 'management', scope: 'read' },
  params: AppParamsSchema,
  response: ListStagesResponseSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return { data: (await services.storage.stages.listByApp(app.id)).map(toStageHeader) };
  },
});
