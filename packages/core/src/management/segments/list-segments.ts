import { defineRoute } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { ListSegmentsResponseSchema, SegmentParamsSchema, SegmentSchema } from '../../schemas/segment.js';
import { loadApp } from '../access.js';
import { toSegment } from '../views.js';
import { loadSegment } from './segment-common.js';

/** Extension: the segments of an app with their filters, by creation. */
export const listSegmentsRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/segments',
  operationId: 'listSegments',
  summary: 'List the segments of an app',
  surface: 'management',
  tags: ['Segments'],
  auth: { kind: 'management', scope: 'read' },
  params: AppParamsSchema,
  response: ListSegmentsResponseSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return { data: (await services.storage.segments.listByApp(app.id)).map(toSegment) };
  },
});

export const getSegmentRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/segments/{segmentId}',
  operationId: 'getSegment',
  summary: 'Get a segment',
  surface: 'management',
  tags: ['Segments'],
  auth: { kind: 'management', scope: 'read' },
  params: SegmentParamsSchema,
  response: SegmentSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return toSegment(await loadSegment(services.storage, app, params.segmentId));
  },
});
