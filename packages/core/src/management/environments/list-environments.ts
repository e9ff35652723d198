import { defineRoute } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { ListEnvironmentsQuerySchema, ListEnvironmentsResponseSchema } from '../../schemas/environment.js';
import { loadApp } from '../access.js';
import { toEnvironmentHeader } from '../views.js';

/** Row 4: sortBy name|order (default order), sortOrder asc|desc (default asc), both echoed. Name ties keep order. */
export const listEnvironmentsRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/environments',
  operationId: 'listEnvironments',
  summary: 'List the environments of an app',
  surface: 'management',
  tags: ['Environments'],
  auth: { kind: 'management', scope: 'read' },
  params: AppParamsSchema,
  query: ListEnvironmentsQuerySchema,
  response: ListEnvironmentsResponseSchema,
  async handle({ params, query, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    const sortBy = query.sortBy ?? 'order';
    const sortOrder = query.sortOrder ?? 'asc';
    const envs = await services.storage.environments.listByApp(app.id); // by order, then id
    const direction = sortOrder === 'desc' ? -1 : 1;
    const sorted =
      sortBy === 'name'
        ? [...envs].sort((a, b) => {
            const x = a.name.toLowerCase();
            const y = b.name.toLowerCase();
            return x === y ? (a.order - b.order) * direction : (x < y ? -1 : 1) * direction;
          })
        : sortOrder === 'desc'
          ? [...envs].reverse()
          : envs;
    return { data: sorted.map(toEnvironmentHeader), sortOrder, sortBy };
  },
});
