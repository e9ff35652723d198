import { Type } from '@sinclair/typebox';
import { mutate } from '../../domain/mutation.js';
import { bumpTargetingVersion } from '../../domain/prerequisite-graph.js';
import { HttpError, invalidRequest } from '../../http/http-error.js';
import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { ContextSchema } from '../../schemas/context.js';
import { optInAllowed } from './opt-in-policy.js';
import { currentState, idString, sdkEnvironment } from '../environment.js';

/** `POST /flags/opt-in` of the browser SDK's `setOptIn(flagKey, { optedIn, scope })` (outside the spec). */
const OptInBodySchema = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 255, description: 'Flag key' }),
    optedIn: Type.Boolean(),
    scope: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('company')], { default: 'user' })),
    context: ContextSchema,
  },
  { $id: 'OptInBody' },
);

const OptInResponseSchema = Type.Object({
  success: Type.Literal(true),
  flagStateVersion: Type.Integer({ minimum: 0, description: 'Refresh with waitForVersion=this to see the change' }),
});

/**
 * Opting in adds the user (or company) as a specific target of the flag in the key's environment, exactly like a
 * management specific-targeting change (rows 9/11, same audit entries); opting out removes that target. It is one mutation: the
 * flagStateVersion is bumped once, audited, and pushed to live streams. A request that changes nothing answers
 * the current version without bumping it.
 */
const optIn = defineRoute({
  method: 'POST',
  path: '/flags/opt-in',
  operationId: 'postFlagOptIn',
  summary: 'Opt the context user or company in to (or out of) a flag',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'any' },
  body: OptInBodySchema,
  response: OptInResponseSchema,
  authorize(services, principal) {
    if (optInAllowed(services.options.optIn, sdkEnvironment(principal).keyKind)) return;
    throw new HttpError(
      403,
      'unauthorized',
      services.options.optIn === 'off'
        ? 'Opt-in is disabled on this server'
        : 'Opt-in needs the secret key (set the optIn option to "publishable" to allow browsers)',
    );
  },
  async handle({ services, principal, body }) {
    const { environment, keyKind } = sdkEnvironment(principal);
    const scope = body.scope ?? 'user';
    const rawId = body.context[scope]?.id;
    if (rawId === undefined || rawId === '') {
      throw invalidRequest(`context.${scope}.id is required to opt a ${scope} in`, {
        [`context.${scope}.id`]: [`Required for scope "${scope}"`],
      });
    }
    const entityId = idString(rawId);
    const state = currentState(services, environment.id);
    const flag = state.flags.get(body.key);
    // Secret flags are invisible to publishable keys, so they cannot be opted into from a browser either.
    if (!flag || (flag.secret && keyKind !== 'secret')) {
      throw new HttpError(404, 'not_found', `Flag "${body.key}" not found in this environment`);
    }
    const app = await services.storage.apps.get(environment.appId);
    const { versions } = await mutate(
      services,
      { orgId: app?.orgId ?? '', actor: `sdk:${environment.id}` },
      async (tx) => {
        const at = services.now().toISOString();
        const changed = body.optedIn
          ? await tx.specificTargets.add({ flagId: flag.id, envId: environment.id, entityType: scope, entityId, createdAt: at })
          : await tx.specificTargets.remove(flag.id, environment.id, scope, entityId);
        if (!changed) return;
        // Same bookkeeping as management rows 9/11: the flag's targeting version moves (SDK check events carry it).
        await bumpTargetingVersion(tx, environment.appId, flag, environment.id, at);
        tx.changesFlagState(environment.id);
        tx.recordAudit({
          appId: environment.appId,
          envId: environment.id,
          action: body.optedIn ? 'flag.specificTarget.added' : 'flag.specificTarget.removed',
          targetType: 'flag',
          targetId: flag.id,
          changeDescription: `${scope} ${entityId} opted ${body.optedIn ? 'in' : 'out'} through the SDK`,
          before: { entityType: scope, entityId, specificTargetValue: body.optedIn ? null : true },
          after: { entityType: scope, entityId, specificTargetValue: body.optedIn ? true : null },
        });
      },
    );
    const flagStateVersion = versions[environment.id] ?? currentState(services, environment.id).version;
    return { success: true, flagStateVersion };
  },
});

export const optInRoutes: RouteDefinition[] = [optIn];
