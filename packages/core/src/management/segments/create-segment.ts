import { mutate } from '../../domain/mutation.js';
import { newId } from '../../domain/ids.js';
import { defineRoute } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { CreateSegmentBodySchema, SegmentMutationResponseSchema } from '../../schemas/segment.js';
import type { SegmentRecord } from '../../storage/records.js';
import { actorOf, versionsAfter, loadApp } from '../access.js';
import { toSegment } from '../views.js';
import { checkFilter, segmentChangesFlagState } from './segment-common.js';

/** Extension: create a custom segment; a segment change, so every environment advances once (segment-common). */
export const createSegmentRoute = defineRoute({
  method: 'POST',
  path: '/apps/{appId}/segments',
  operationId: 'createSegment',
  summary: 'Create a segment',
  surface: 'management',
  tags: ['Segments'],
  auth: { kind: 'management', scope: 'admin' },
  params: AppParamsSchema,
  body: CreateSegmentBodySchema,
  response: SegmentMutationResponseSchema,
  async handle({ params, body, principal, services }) {
    checkFilter(body.filter, 'filter');
    const app = await loadApp(services.storage, principal, params.appId);
    const { result, versions } = await mutate(services, actorOf(principal), async (tx) => {
      const at = services.now().toISOString();
      const segment: SegmentRecord = { id: newId('sg'), appId: app.id, name: body.name, type: 'custom', filter: body.filter, createdAt: at, updatedAt: at };
      await tx.segments.insert(segment);
      await segmentChangesFlagState(tx, app.id);
      tx.recordAudit({ appId: app.id, envId: null, action: 'segment.created', targetType: 'segment', targetId: segment.id, changeDescription: null, before: null, after: segment });
      return segment;
    });
    return { segment: toSegment(result), flagStateVersions: await versionsAfter(services.storage, app.id, versions) };
  },
});
