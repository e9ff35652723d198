import { defineRoute } from '../../http/route.js';
import { ListAppsQuerySchema, ListAppsResponseSchema } from '../../schemas/app.js';
import { orgIdOf } from '../access.js';
import { appHeader } from '../views.js';

/**
 * Row 1. A key sees the apps of its own organisation only; `orgId` narrows further, so another organisation's id
 * yields an empty list (not an error: the caller learns nothing about ids it cannot use).
 */
export const listAppsRoute = defineRoute({
  method: 'GET',
  path: '/apps',
  operationId: 'listApps',
  summary: 'List apps',
  surface: 'management',
  tags: ['Apps'],
  auth: { kind: 'management', scope: 'read' },
  query: ListAppsQuerySchema,
  response: ListAppsResponseSchema,
  async handle({ query, principal, services }) {
    const orgId = orgIdOf(principal);
    if (query.orgId !== undefined && query.orgId !== orgId) return { data: [] };
    const apps = await services.storage.apps.list({ orgId });
    return { data: await Promise.all(apps.map((app) => appHeader(services.storage, app))) };
  },
});
