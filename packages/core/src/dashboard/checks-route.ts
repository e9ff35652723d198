import { Type } from '@sinclair/typebox';
import { defineRoute, type RouteDefinition } from '../http/route.js';
import { loadApp, loadEnvironment, loadFlagByKey } from '../management/access.js';
import { IdSchema } from '../schemas/common.js';

export const FLAG_CHECKS_DAYS_MAX = 90;

export const FlagChecksParamsSchema = Type.Object({ appId: IdSchema, flagKey: Type.String({ minLength: 1 }) });

export const FlagChecksQuerySchema = Type.Object({
  envId: Type.Optional(IdSchema),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: FLAG_CHECKS_DAYS_MAX, default: 30 })),
});

const DailyCountSchema = Type.Object(
  {
    day: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
    checkCount: Type.Integer({ minimum: 0 }),
    exposureCount: Type.Integer({ minimum: 0, description: 'Checks of the day whose evalResult was true' }),
    trackCount: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const FlagChecksResponseSchema = Type.Object(
  {
    flagKey: Type.String(),
    since: Type.String({ description: 'First day of the range (UTC, YYYY-MM-DD)' }),
    until: Type.String({ description: 'Last day of the range, today (UTC)' }),
    data: Type.Array(
      Type.Object(
        {
          envId: IdSchema,
          envName: Type.String(),
          /** Every day of the range, oldest first; days without activity are zeros. */
          days: Type.Array(DailyCountSchema),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: 'FlagChecks' },
);

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Extension: checks, exposures and tracks per UTC day for one flag (the dashboard's chart). Read-only, `read` scope; it
 * reads the per-day aggregates ingestion already keeps, so it costs one indexed query.
 */
const getFlagChecks = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/flags/{flagKey}/checks',
  operationId: 'getFlagChecks',
  summary: 'Checks, exposures and tracks of a flag per day, per environment',
  surface: 'management',
  tags: ['Flags'],
  auth: { kind: 'management', scope: 'read' },
  params: FlagChecksParamsSchema,
  query: FlagChecksQuerySchema,
  response: FlagChecksResponseSchema,
  async handle({ services, principal, params, query }) {
    const { storage } = services;
    const app = await loadApp(storage, principal, params.appId);
    const flag = await loadFlagByKey(storage, app, params.flagKey);
    const envs = query.envId
      ? [await loadEnvironment(storage, app, query.envId)]
      : await storage.environments.listByApp(app.id);
    const days = query.days ?? 30;
    const today = services.now();
    const range: string[] = [];
    for (let i = days - 1; i >= 0; i--) range.push(dayOf(new Date(today.getTime() - i * 86_400_000)));
    const rows = await storage.stats.listFlagDailyStats(
      envs.map((e) => e.id),
      range[0]!,
    );
    type Counts = { checkCount: number; exposureCount: number; trackCount: number };
    const counts = new Map<string, Counts>();
    for (const row of rows) {
      if (row.flagKey !== flag.key) continue;
      counts.set(`${row.envId}/${row.day}`, { checkCount: row.checkCount, exposureCount: row.exposureCount, trackCount: row.trackCount });
    }
    const none: Counts = { checkCount: 0, exposureCount: 0, trackCount: 0 };
    return {
      flagKey: flag.key,
      since: range[0]!,
      until: range[range.length - 1]!,
      data: envs.map((env) => ({
        envId: env.id,
        envName: env.name,
        days: range.map((day) => ({ day, ...(counts.get(`${env.id}/${day}`) ?? none) })),
      })),
    };
  },
});

export const flagChecksRoutes: RouteDefinition[] = [getFlagChecks];
