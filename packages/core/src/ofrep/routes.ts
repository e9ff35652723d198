import { defineRoute, raw, type Principal, type RouteDefinition } from '../http/route.js';
import { jsonResponse } from '../http/handler.js';
import { documented } from '../openapi/annotations.js';
import { withRemoteContext } from '../runtime/context/remote-context.js';
import { currentState, sdkEnvironment } from '../runtime/environment.js';
import type { Context } from '../schemas/context.js';
import type { Services } from '../services.js';
import type { EnvironmentState } from '../snapshot/environment-state.js';
import { InvalidContextError, toFlagmountContext } from './context.js';
import { ofrepErrorResponse } from './errors.js';
import { recordChecks } from './checks.js';
import { ofrepConfigurationRoute } from './configuration.js';
import { answerWithEtag, etagDocs } from './etag.js';
import { sentPayload, toOfrepSuccess } from './evaluate.js';
import {
  OfrepBulkEvaluationFailureSchema,
  OfrepBulkEvaluationSuccessSchema,
  OfrepEvaluationFailureSchema,
  OfrepEvaluationRequestSchema,
  OfrepEvaluationSuccessSchema,
  OfrepFlagKeyParamsSchema,
  OfrepRequestEnvelopeSchema,
} from './schemas.js';

interface Resolved {
  state: EnvironmentState;
  /** What the caller sent, as its checks report it. */
  sent: Context;
  /** What the rules see: `sent` over the stored attributes. */
  context: Context;
  remoteContextUsed: boolean;
  /** Secret flags are served to the secret key only (as on `/features/evaluated`): a publishable key lives in browsers. */
  includeSecret: boolean;
}

async function resolve(services: Services, principal: Principal, rawContext: unknown): Promise<Resolved> {
  const { environment, keyKind } = sdkEnvironment(principal);
  const sent = toFlagmountContext(rawContext);
  const state = currentState(services, environment.id);
  const { context, used } = await withRemoteContext(services, environment.id, sent);
  return { state, sent, context, remoteContextUsed: used, includeSecret: keyKind === 'secret' };
}

const visible = (r: Resolved, flagKey: string) => {
  const flag = r.state.flags.get(flagKey);
  return flag !== undefined && (!flag.secret || r.includeSecret);
};

const evaluateFlag = defineRoute({
  method: 'POST',
  path: '/ofrep/v1/evaluate/flags/{key}',
  operationId: 'ofrepEvaluateFlag',
  summary: 'OFREP: evaluate one flag for a context',
  surface: 'runtime',
  tags: ['OFREP'],
  auth: { kind: 'sdk', keys: 'any' },
  params: OfrepFlagKeyParamsSchema,
  body: OfrepRequestEnvelopeSchema,
  response: OfrepEvaluationSuccessSchema,
  errorResponse: ofrepErrorResponse,
  async handle({ services, principal, params, body }) {
    const key = params.key;
    let resolved: Resolved;
    try {
      resolved = await resolve(services, principal, body?.context);
    } catch (error) {
      if (!(error instanceof InvalidContextError)) throw error;
      return raw(jsonResponse(400, { key, errorCode: 'INVALID_CONTEXT', errorDetails: error.message }));
    }
    const evaluation = visible(resolved, key) ? resolved.state.compiled.evaluate(key, resolved.context) : undefined;
    if (!evaluation) {
      return raw(jsonResponse(404, { key, errorCode: 'FLAG_NOT_FOUND', errorDetails: `Flag "${key}" was not found` }));
    }
    const envId = resolved.state.environment.id;
    recordChecks(services, envId, resolved.sent, 'check', [{ evaluation, payloadSent: sentPayload(evaluation) !== undefined }]);
    return toOfrepSuccess(resolved.state, evaluation, resolved.remoteContextUsed);
  },
});

const evaluateFlags = defineRoute({
  method: 'POST',
  path: '/ofrep/v1/evaluate/flags',
  operationId: 'ofrepEvaluateFlags',
  summary: 'OFREP: evaluate every flag for a context (ETag / If-None-Match)',
  surface: 'runtime',
  tags: ['OFREP'],
  auth: { kind: 'sdk', keys: 'any' },
  body: OfrepRequestEnvelopeSchema,
  response: OfrepBulkEvaluationSuccessSchema,
  errorResponse: ofrepErrorResponse,
  async handle({ services, principal, body, request }) {
    let resolved: Resolved;
    try {
      resolved = await resolve(services, principal, body?.context);
    } catch (error) {
      if (!(error instanceof InvalidContextError)) throw error;
      return raw(jsonResponse(400, { errorCode: 'INVALID_CONTEXT', errorDetails: error.message }));
    }
    const all = resolved.state.compiled.evaluateAll(resolved.context);
    const keys = Object.keys(all).filter((key) => visible(resolved, key)).sort();
    const flags = keys.map((key) => toOfrepSuccess(resolved.state, all[key]!, resolved.remoteContextUsed));
    // The tag hashes the answer itself: it changes exactly when this context's results change, whatever caused it
    // (targeting, segments, stored attributes).
    const answer = answerWithEtag(request, JSON.stringify({ flags }));
    if (answer.status === 200) {
      // A 304 tells a provider to keep what it has: only an answer it receives counts as an evaluation.
      const answered = keys.map((key) => ({ evaluation: all[key]!, payloadSent: sentPayload(all[key]!) !== undefined }));
      recordChecks(services, resolved.state.environment.id, resolved.sent, 'evaluate', answered);
    }
    return raw(answer);
  },
});

const bulkDocs = etagDocs({ description: 'Every flag evaluated', schema: OfrepBulkEvaluationSuccessSchema });

const failure = (description: string) => ({ description, schema: OfrepEvaluationFailureSchema });

/** OFREP's two core routes and its configuration (https://github.com/open-feature/protocol), under `<prefix>/ofrep/v1/…`. */
export const ofrepRoutes: RouteDefinition[] = [
  documented(evaluateFlag, {
    description: 'Boolean flags answer `isEnabled`; a matched config variant answers its payload.',
    requestBody: OfrepEvaluationRequestSchema,
    responses: {
      '400': failure('The body is not an evaluation request (`PARSE_ERROR`) or the context cannot be used (`INVALID_CONTEXT`)'),
      '401': { description: 'No SDK key was sent' },
      '404': failure('No such flag in this environment (`FLAG_NOT_FOUND`)'),
    },
  }),
  documented(evaluateFlags, {
    ...bulkDocs,
    requestBody: OfrepEvaluationRequestSchema,
    responses: {
      ...bulkDocs.responses,
      '400': {
        description: 'The body is not an evaluation request (`PARSE_ERROR`) or the context cannot be used (`INVALID_CONTEXT`)',
        schema: OfrepBulkEvaluationFailureSchema,
      },
    },
  }),
  ofrepConfigurationRoute,
];
