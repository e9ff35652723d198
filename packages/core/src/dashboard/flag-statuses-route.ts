import { Type } from '@sinclair/typebox';
import { defineRoute, type RouteDefinition } from '../http/route.js';
import { loadApp } from '../management/access.js';
import { environmentStatuses } from '../management/flags/list-flags-route.js';
import { AppParamsSchema, IdSchema } from '../schemas/common.js';

const StatusSchema = Type.Union([Type.Literal('off'), Type.Literal('targeted'), Type.Literal('everyone')]);

export const FlagStatusesResponseSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          envId: IdSchema,
          /** Flag key → status: off (no rule, no specific target, or archived), targeted, everyone. */
          flags: Type.Record(Type.String(), StatusSchema),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: 'FlagStatuses' },
);

/**
 * Extension: every flag's status in every environment of the app, in one answer (the flag list's status
 * columns). Row 3 answers it for one environment and only as a sort order; asking per flag would be a request per
 * flag and environment. Same meaning as row 3's `environmentStatus`.
 */
const getFlagStatuses = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/flag-statuses',
  operationId: 'getFlagStatuses',
  summary: 'The status (off / targeted / everyone) of every flag in every environment',
  surface: 'management',
  tags: ['Flags'],
  auth: { kind: 'management', scope: 'read' },
  params: AppParamsSchema,
  response: FlagStatusesResponseSchema,
  async handle({ services, principal, params }) {
    const repos = services.storage;
    const app = await loadApp(repos, principal, params.appId);
    const [envs, flags] = await Promise.all([repos.environments.listByApp(app.id), repos.flags.listByApp(app.id)]);
    const data = await Promise.all(
      envs.map(async (env) => {
        const statuses = await environmentStatuses(repos, app.id, env, flags);
        return { envId: env.id, flags: Object.fromEntries(flags.map((f) => [f.key, statuses.get(f.id) ?? 'off'])) };
      }),
    );
    return { data };
  },
});

export const flagStatusesRoutes: RouteDefinition[] = [getFlagStatuses];
