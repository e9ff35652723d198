import { Type } from '@sinclair/typebox';
import { defineRoute, type RouteDefinition } from '../http/route.js';
import { loadApp, loadEnvironment, loadFlagByKey } from '../management/access.js';
import { IdSchema, nullable, TimestampSchema } from '../schemas/common.js';
import { FlagChecksParamsSchema } from './checks-route.js';

/** How many of an environment's latest feedback entries are searched for the flag's. */
export const FEEDBACK_SCAN_MAX = 1000;

export const FlagFeedbackResponseSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          id: IdSchema,
          envId: IdSchema,
          userId: Type.String(),
          companyId: nullable(Type.String()),
          question: nullable(Type.String()),
          score: nullable(Type.Number()),
          comment: nullable(Type.String()),
          createdAt: TimestampSchema,
        },
        { additionalProperties: false },
      ),
    ),
    /** Count and mean of the scores listed (null without scores). */
    scoreCount: Type.Integer({ minimum: 0 }),
    scoreAverage: nullable(Type.Number()),
  },
  { additionalProperties: false, $id: 'FlagFeedback' },
);

/**
 * Extension: the feedback users gave about one flag (runtime `POST /feedback`), newest first, from the latest
 * FEEDBACK_SCAN_MAX entries of each environment (the store keeps feedback per environment, not per flag).
 */
const getFlagFeedback = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/flags/{flagKey}/feedback',
  operationId: 'getFlagFeedback',
  summary: 'Feedback (scores and comments) about a flag',
  surface: 'management',
  tags: ['Flags'],
  auth: { kind: 'management', scope: 'read' },
  params: FlagChecksParamsSchema,
  query: Type.Object({ envId: Type.Optional(IdSchema) }),
  response: FlagFeedbackResponseSchema,
  async handle({ services, principal, params, query }) {
    const { storage } = services;
    const app = await loadApp(storage, principal, params.appId);
    const flag = await loadFlagByKey(storage, app, params.flagKey);
    const envs = query.envId ? [await loadEnvironment(storage, app, query.envId)] : await storage.environments.listByApp(app.id);
    const rows = (await Promise.all(envs.map((env) => storage.feedback.listByEnv(env.id, FEEDBACK_SCAN_MAX)))).flat();
    const data = rows
      .filter((r) => r.flagKey === flag.key || r.featureId === flag.id)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((r) => ({
        id: r.id,
        envId: r.envId,
        userId: r.userId,
        companyId: r.companyId,
        question: r.question ?? r.promptedQuestion,
        score: r.score,
        comment: r.comment,
        createdAt: r.createdAt,
      }));
    const scores = data.flatMap((d) => (d.score === null ? [] : [d.score]));
    return {
      data,
      scoreCount: scores.length,
      scoreAverage: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    };
  },
});

export const flagFeedbackRoutes: RouteDefinition[] = [getFlagFeedback];
