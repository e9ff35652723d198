import { raw, defineRoute, type RouteDefinition } from '../../http/route.js';
import { jsonTextResponse } from '../../http/handler.js';
import { EvaluatedQuerySchema, WaitForVersionQuerySchema } from '../../schemas/context.js';
import { EvaluatedFeaturesResponseSchema } from '../../schemas/evaluated-feature.js';
import { FeaturesResponseSchema } from '../../schemas/features.js';
import type { RouteContext } from '../../http/route.js';
import type { Static } from '@sinclair/typebox';
import type { Context } from '../../schemas/context.js';
import type { EnvironmentState } from '../../snapshot/environment-state.js';
import { contextFromQuery } from '../context/query-context.js';
import { cachedRemoteContext, withRemoteContext, type RemoteContext } from '../context/remote-context.js';
import { currentState, sdkEnvironment, waitForVersion } from '../environment.js';
import { optInAllowed } from '../opt-in/opt-in-policy.js';
import { evaluatedFeaturesBody, releaseEvaluatedBody } from './evaluated-json.js';
import { loadedOptInIndex, optInIndex, type OptInIndex } from './opt-in-index.js';

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
    const state = await waitForVersion(services, environment.id, query.waitForVersion, request);
    // The body is the same for every caller of a version: serialised once per snapshot.
    return raw(jsonTextResponse(200, state.featuresBody()));
  },
});

type KeyKind = ReturnType<typeof sdkEnvironment>['keyKind'];
type EvaluatedContext = RouteContext<Record<string, never>, Static<typeof EvaluatedQuerySchema>, undefined>;

/**
 * Answers at once when the snapshot, its opt-in index and the caller's stored attributes are all in memory (the
 * usual case); otherwise waits for whichever is missing.
 */
function evaluated(ctx: EvaluatedContext, enabledOnly: boolean) {
  const { services, principal, query, request } = ctx;
  const { environment, keyKind } = sdkEnvironment(principal);
  // Validate the context before holding the request: a bad request is answered at once.
  const sent = contextFromQuery(request.query);
  if (query.waitForVersion === undefined) {
    const state = currentState(services, environment.id);
    const optIns = loadedOptInIndex(state);
    const remote = optIns && cachedRemoteContext(services, environment.id, sent);
    if (optIns && remote) return answer(ctx, enabledOnly, keyKind, state, remote, optIns);
  }
  return evaluatedLater(ctx, enabledOnly, keyKind, environment.id, sent);
}

async function evaluatedLater(ctx: EvaluatedContext, enabledOnly: boolean, keyKind: KeyKind, envId: string, sent: Context) {
  const { services, query, request } = ctx;
  const state = await waitForVersion(services, envId, query.waitForVersion, request);
  const [remote, optIns] = await Promise.all([withRemoteContext(services, envId, sent), optInIndex(services, state)]);
  return answer(ctx, enabledOnly, keyKind, state, remote, optIns);
}

function answer(
  ctx: EvaluatedContext,
  enabledOnly: boolean,
  keyKind: KeyKind,
  state: EnvironmentState,
  remote: RemoteContext,
  optIns: OptInIndex,
) {
  // Serialised straight to bytes (the same body `JSON.stringify` would write for `evaluateFeatures`' object).
  const options = {
    key: ctx.query.key,
    enabledOnly,
    includeSecret: keyKind === 'secret',
    optInEnabled: optInAllowed(ctx.services.options.optIn, keyKind),
  };
  const body = evaluatedFeaturesBody(state, remote.context, optIns, options, remote.used);
  const response = jsonTextResponse(200, body);
  response.release = (sent) => releaseEvaluatedBody(body, sent);
  return raw(response);
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
