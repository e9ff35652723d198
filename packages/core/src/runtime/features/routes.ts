import { raw, defineRoute, type RouteDefinition } from '../../http/route.js';
import { jsonTextResponse } from '../../http/handler.js';
import { EvaluatedQuerySchema, WaitForVersionQuerySchema } from '../../schemas/context.js';
import { EvaluatedFeaturesResponseSchema } from '../../schemas/evaluated-feature.js';
import { FeaturesResponseSchema } from '../../schemas/features.js';
import type { RouteContext } from '../../http/route.js';
import type { Static } from '@sinclair/typebox';
import { contextFromQuery } from '../context/query-context.js';
import { withRemoteContext } from '../context/remote-context.js';
import { checkWaitForVersion, sdkEnvironment, waitForVersion } from '../environment.js';
import { optInAllowed } from '../opt-in/opt-in-policy.js';
import { evaluatedFeaturesBody } from './evaluated-json.js';
import { optInIndex } from './opt-in-index.js';

const getFeatures = defineRoute({
  method: 'GET',
  path: '/features',
  operationId: 'getFeatures',
  summary: 'Every flag with its targeting rules, for local evaluation (secret key only)',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'secret' },
  query: WaitForVersionQuerySchema,
  response: FeaturesResponseSchema,
  async handle({ services, principal, query, request }) {
    const { environment } = sdkEnvironment(principal);
    checkWaitForVersion(request);
    const state = await waitForVersion(services, environment.id, query.waitForVersion, request);
    // The body is the same for every caller of a version: serialised once per snapshot.
    return raw(jsonTextResponse(200, state.featuresBody()));
  },
});

type EvaluatedContext = RouteContext<Record<string, never>, Static<typeof EvaluatedQuerySchema>, undefined>;

async function evaluated(ctx: EvaluatedContext, enabledOnly: boolean) {
  const { services, principal, query, request } = ctx;
  const { environment, keyKind } = sdkEnvironment(principal);
  // Validate the context before holding the request: a bad request is answered at once.
  checkWaitForVersion(request);
  const sent = contextFromQuery(request.query);
  const state = await waitForVersion(services, environment.id, query.waitForVersion, request);
  const [{ context, used }, optIns] = await Promise.all([
    withRemoteContext(services, environment.id, sent),
    optInIndex(services, state),
  ]);
  // Serialised straight to bytes (the same body `JSON.stringify` would write for `evaluateFeatures`' object).
  const options = {
    key: query.key,
    enabledOnly,
    includeSecret: keyKind === 'secret',
    optInEnabled: optInAllowed(services.options.optIn, keyKind),
  };
  return raw(jsonTextResponse(200, evaluatedFeaturesBody(state, context, optIns, options, used === true)));
}

const getEvaluated = defineRoute({
  method: 'GET',
  path: '/features/evaluated',
  operationId: 'getEvaluatedFeatures',
  summary: 'Every flag evaluated for a context',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'any' },
  query: EvaluatedQuerySchema,
  response: EvaluatedFeaturesResponseSchema,
  handle: (ctx) => evaluated(ctx, false),
});

const getEnabled = defineRoute({
  method: 'GET',
  path: '/features/enabled',
  operationId: 'getEnabledFeatures',
  summary: 'The flags that evaluate to true for a context',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'any' },
  query: EvaluatedQuerySchema,
  response: EvaluatedFeaturesResponseSchema,
  handle: (ctx) => evaluated(ctx, true),
});

export const featureRoutes: RouteDefinition[] = [getFeatures, getEvaluated, getEnabled];
