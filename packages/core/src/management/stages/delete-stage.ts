import { mutate } from '../../domain/mutation.js';
import { notFound, notPossible } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { DeletedSchema } from '../../schemas/common.js';
import { StageParamsSchema } from '../../schemas/stage.js';
import { actorOf, loadApp } from '../access.js';

/**
 * Extension: delete a stage. A stage that flags are in cannot be deleted (400 not_possible): the spec gives flags
 * no way to leave a stage (stageId is not nullable), so deleting it would strand them.
 */
export const deleteStageRoute = defineRoute({
  method: 'DELETE',
  path: '/apps/{appId}/stages/{stageId}',
  operationId: 'deleteStage',
  summary: 'Delete a stage',
  surface: 'management',
  tags: ['Stages'],
  auth: { kind: 'management', scope: 'admin' },
  params: StageParamsSchema,
  response: DeletedSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    await mutate(services, actorOf(principal), async (tx) => {
      const stage = await tx.stages.get(params.stageId);
      if (!stage || stage.appId !== app.id) throw notFound(`Stage ${params.stageId}`);
      const users = (await tx.flags.listByApp(app.id)).filter((f) => f.stageId === stage.id);
      if (users.length) {
        throw notPossible(`Stage ${stage.id} is used by ${users.length} flag(s); move them to another stage first`, {
          stageId: [`used by ${users.map((f) => f.key).slice(0, 10).join(', ')}`],
        });
      }
      await tx.stages.delete(stage.id);
      tx.recordAudit({ appId: app.id, envId: null, action: 'stage.deleted', targetType: 'stage', targetId: stage.id, changeDescription: null, before: stage, after: null });
    });
    return { id: params.stageId, deleted: true as const };
  },
});
