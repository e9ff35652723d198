import { mutate } from '../../domain/mutation.js';
import { notPossible } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { DeletedWithVersionsSchema } from '../../schemas/common.js';
import { SegmentParamsSchema } from '../../schemas/segment.js';
import { actorOf, versionsAfter, loadApp } from '../access.js';
import { loadSegment, refuseAllSegment, segmentChangesFlagState, segmentUsage } from './segment-common.js';

/**
 * Extension: delete a segment that no rule uses (400 not_possible otherwise: a rule whose segment vanished would
 * match nobody, silently switching the flag off). A segment change: every environment advances once, and the answer
 * carries the new versions, as segment create and update do.
 */
export const deleteSegmentRoute = defineRoute({
  method: 'DELETE',
  path: '/apps/{appId}/segments/{segmentId}',
  operationId: 'deleteSegment',
  summary: 'Delete a segment',
  surface: 'management',
  tags: ['Segments'],
  auth: { kind: 'management', scope: 'admin' },
  params: SegmentParamsSchema,
  response: DeletedWithVersionsSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    const { versions } = await mutate(services, actorOf(principal), async (tx) => {
      const segment = await loadSegment(tx, app, params.segmentId);
      refuseAllSegment(segment);
      const usage = await segmentUsage(tx, app.id, segment.id);
      if (usage.length) {
        // Named, so that whoever deletes knows which rules to change first (the dashboard shows these messages).
        const [flags, envs] = await Promise.all([tx.flags.listByApp(app.id), tx.environments.listByApp(app.id)]);
        const flagKey = new Map(flags.map((f) => [f.id, f.key]));
        const envName = new Map(envs.map((e) => [e.id, e.name]));
        const uses = usage.map((u) => `used by the rules of flag ${flagKey.get(u.flagId) ?? u.flagId} in ${envName.get(u.envId) ?? u.envId}`);
        throw notPossible(`Segment ${segment.id} is used by the targeting rules of ${usage.length} flag environment(s)`, {
          segmentId: uses,
        });
      }
      await tx.segments.delete(segment.id);
      await segmentChangesFlagState(tx, app.id);
      tx.recordAudit({ appId: app.id, envId: null, action: 'segment.deleted', targetType: 'segment', targetId: segment.id, changeDescription: null, before: segment, after: null });
    });
    return { id: params.segmentId, deleted: true as const, flagStateVersions: await versionsAfter(services.storage, app.id, versions) };
  },
});
