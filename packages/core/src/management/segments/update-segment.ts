import { mutate } from '../../domain/mutation.js';
import { defineRoute } from '../../http/route.js';
import { SegmentMutationResponseSchema, SegmentParamsSchema, UpdateSegmentBodySchema } from '../../schemas/segment.js';
import type { Patch } from '../../storage/port.js';
import type { SegmentRecord } from '../../storage/records.js';
import { sameJson } from '../canonical-json.js';
import { actorOf, versionsAfter, loadApp } from '../access.js';
import { refreshRolloutState } from '../targeting/everyone.js';
import { toSegment } from '../views.js';
import { checkFilter, loadSegment, refuseAllSegment, segmentChangesFlagState, segmentUsage } from './segment-common.js';


/**
 * Extension: rename a segment or replace its filter. A segment change is a flag-state change of every environment
 * of the app (architecture.md); the flags whose rules use the segment also get a new targetingVersion there, so
 * SDK check events tell the old rules from the new ones.
 */
export const updateSegmentRoute = defineRoute({
  method: 'PATCH',
  path: '/apps/{appId}/segments/{segmentId}',
  operationId: 'updateSegment',
  summary: 'Update a segment',
  surface: 'management',
  tags: ['Segments'],
  auth: { kind: 'management', scope: 'admin' },
  params: SegmentParamsSchema,
  body: UpdateSegmentBodySchema,
  response: SegmentMutationResponseSchema,
  async handle({ params, body, principal, services }) {
    if (body.filter !== undefined) checkFilter(body.filter, 'filter');
    const app = await loadApp(services.storage, principal, params.appId);
    const { result, versions } = await mutate(services, actorOf(principal), async (tx) => {
      const before = await loadSegment(tx, app, params.segmentId);
      refuseAllSegment(before);
      const patch: Patch<SegmentRecord, 'id' | 'appId' | 'createdAt'> = {};
      if (body.name !== undefined && body.name !== before.name) patch.name = body.name;
      if (body.filter !== undefined && !sameJson(body.filter, before.filter)) patch.filter = body.filter;
      if (!Object.keys(patch).length) return before;

      const at = services.now().toISOString();
      patch.updatedAt = at;
      await tx.segments.update(before.id, patch);
      if (patch.filter) {
        for (const { flagId, envId } of await segmentUsage(tx, app.id, before.id)) {
          const t = (await tx.targeting.get(flagId, envId))!;
          await tx.targeting.put({ ...t, version: t.version + 1, updatedAt: at });
        }
        await refreshRolloutState(tx, app.id, at);
      }
      await segmentChangesFlagState(tx, app.id);
      const after = { ...before, ...patch };
      tx.recordAudit({ appId: app.id, envId: null, action: 'segment.updated', targetType: 'segment', targetId: before.id, changeDescription: null, before, after });
      return after;
    });
    return { segment: toSegment(result), flagStateVersions: await versionsAfter(services.storage, app.id, versions) };
  },
});
