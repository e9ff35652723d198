import { mutate } from '../../domain/mutation.js';
import { newId } from '../../domain/ids.js';
import { defineRoute } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { CreateStageBodySchema, StageHeaderSchema } from '../../schemas/stage.js';
import type { StageRecord } from '../../storage/records.js';
import { actorOf, loadApp } from '../access.js';
import { toStageHeader } from '../views.js';
import { checkColor } from './stage-routes-common.js';

/** Extension: add a stage (order defaults to after the last one). No flag uses it yet: no version moves. */
export const createStageRoute = defineRoute({
  method: 'POST',
  path: '/apps/{appId}/stages',
  operationId: 'createStage',
  summary: 'Create a stage',
  surface: 'management',
  tags: ['Stages'],
  auth: { kind: 'management', scope: 'admin' },
  params: AppParamsSchema,
  body: CreateStageBodySchema,
  response: StageHeaderSchema,
  async handle({ params, body, principal, services }) {
    checkColor(body.color);
    const app = await loadApp(services.storage, principal, params.appId);
    const { result } = await mutate(services, actorOf(principal), async (tx) => {
      const stages = await tx.stages.listByApp(app.id);
      const order = body.order ?? stages.reduce((max, s) => Math.max(max, s.order + 1), 0);
      const stage: StageRecord = { id: newId('st'), appId: app.id, name: body.name, color: body.color, order };
      await tx.stages.insert(stage);
      tx.recordAudit({ appId: app.id, envId: null, action: 'stage.created', targetType: 'stage', targetId: stage.id, changeDescription: null, before: null, after: stage });
      return stage;
    });
    return toStageHeader(result);
  },
});
