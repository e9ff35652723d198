import { mutate } from '../../domain/mutation.js';
import { notFound } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { StageParamsSchema, StageUpdateResponseSchema, UpdateStageBodySchema } from '../../schemas/stage.js';
import type { Patch } from '../../storage/port.js';
import type { StageRecord } from '../../storage/records.js';
import { actorOf, versionsAfter, loadApp } from '../access.js';
import { toStageHeader } from '../views.js';
import { checkColor, stageChangesFlagState } from './stage-routes-common.js';

/** Extension: rename, recolor or reorder a stage; bumps every environment when flags use it (see stage-routes-common). */
export const updateStageRoute = defineRoute({
  method: 'PATCH',
  path: '/apps/{appId}/stages/{stageId}',
  operationId: 'updateStage',
  summary: 'Update a stage',
  surface: 'management',
  tags: ['Stages'],
  auth: { kind: 'management', scope: 'admin' },
  params: StageParamsSchema,
  body: UpdateStageBodySchema,
  response: StageUpdateResponseSchema,
  async handle({ params, body, principal, services }) {
    checkColor(body.color);
    const app = await loadApp(services.storage, principal, params.appId);
    const { result, versions } = await mutate(services, actorOf(principal), async (tx) => {
      const before = await tx.stages.get(params.stageId);
      if (!before || before.appId !== app.id) throw notFound(`Stage ${params.stageId}`);
      const patch: Patch<StageRecord, 'id' | 'appId'> = {};
      if (body.name !== undefined && body.name !== before.name) patch.name = body.name;
      if (body.color !== undefined && body.color !== before.color) patch.color = body.color;
      if (body.order !== undefined && body.order !== before.order) patch.order = body.order;
      if (!Object.keys(patch).length) return before;
      await tx.stages.update(before.id, patch);
      await stageChangesFlagState(tx, app, before.id);
      const after = { ...before, ...patch };
      tx.recordAudit({ appId: app.id, envId: null, action: 'stage.updated', targetType: 'stage', targetId: before.id, changeDescription: null, before, after });
      return after;
    });
    return { ...toStageHeader(result), flagStateVersions: await versionsAfter(services.storage, app.id, versions) };
  },
});
