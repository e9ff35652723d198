import { mutate } from '../../domain/mutation.js';
import { bumpTargetingVersion } from '../../domain/prerequisite-graph.js';
import { addIssue, notPossible, type Issues } from '../../http/http-error.js';
import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { UpdateEntityFlagsBodySchema, UpdateEntityFlagsResponseSchema } from '../../schemas/entity-flag.js';
import type { FlagRecord } from '../../storage/records.js';
import { actorOf, loadApp, loadEntity, loadEnvironment } from '../access.js';
import { entityFlagsPage } from './entity-flags-view.js';
import { entityIdOf, type EntityKind } from './entity-kind.js';

interface Change {
  flag: FlagRecord;
  value: true | null;
}

/**
 * Rows 9 and 11: add (`true`) or remove (`null`) specific-targeting overrides of one entity. The updates are read
 * in order, so for a flag listed twice the last one wins; only flags whose override actually changes are written.
 * Any change bumps the environment once per request and each changed flag's targeting `version` there (SDK check
 * events carry it); a request that changes nothing writes nothing — no bump, no audit, no notification.
 * The user or company must be stored first (spec: "complete the upsert first, then send the targeting update"):
 * one that is not is a 404, checked in the transaction so a concurrent delete cannot leave orphan overrides.
 */
export function updateEntityFlagsRoute(kind: EntityKind): RouteDefinition {
  return defineRoute({
    method: 'PATCH',
    path: `/apps/{appId}/envs/{envId}/${kind.segment}/{${kind.param}}/flags`,
    operationId: `update${kind.label}Flags`,
    summary: `Add or remove specific targeting of a ${kind.type}`,
    surface: 'management',
    tags: ['Entity flags'],
    auth: { kind: 'management', scope: 'write:flag:targeting' },
    params: kind.params,
    body: UpdateEntityFlagsBodySchema,
    response: UpdateEntityFlagsResponseSchema,
    async handle({ params, body, principal, services }) {
      const entityId = entityIdOf(kind, params);
      const actor = actorOf(principal);
      const app = await loadApp(services.storage, principal, params.appId);
      const { result, versions } = await mutate(services, actor, async (tx) => {
        const env = await loadEnvironment(tx, app, params.envId);
        const entity = await loadEntity(tx, env, kind.type, entityId);
        const issues: Issues = {};
        const wanted = new Map<string, Change>();
        for (const [i, update] of body.updates.entries()) {
          const flag = await tx.flags.getByKey(app.id, update.flagKey);
          if (!flag) addIssue(issues, `updates.${i}.flagKey`, `No flag with key "${update.flagKey}" in this app`);
          else wanted.set(flag.id, { flag, value: update.specificTargetValue });
        }
        if (Object.keys(issues).length) throw notPossible('Some updates name flags that do not exist', issues);

        const existing = new Set((await tx.specificTargets.listForEntity(env.id, kind.type, entityId)).map((o) => o.flagId));
        const changes = [...wanted.values()].filter((c) => (c.value === true) !== existing.has(c.flag.id));
        if (!changes.length) return { env, entity, changes };

        const at = services.now().toISOString();
        for (const { flag, value } of changes) {
          if (value) await tx.specificTargets.add({ flagId: flag.id, envId: env.id, entityType: kind.type, entityId, createdAt: at });
          else await tx.specificTargets.remove(flag.id, env.id, kind.type, entityId);
          await bumpTargetingVersion(tx, app.id, flag, env.id, at);
          tx.recordAudit({
            appId: app.id,
            envId: env.id,
            action: value ? 'flag.specificTarget.added' : 'flag.specificTarget.removed',
            targetType: 'flag',
            targetId: flag.id,
            changeDescription: body.changeDescription ?? null,
            before: { entityType: kind.type, entityId, specificTargetValue: value ? null : true },
            after: { entityType: kind.type, entityId, specificTargetValue: value },
          });
        }
        tx.changesFlagState(env.id);
        return { env, entity, changes };
      });

      const flagStateVersion = versions[result.env.id] ?? (await services.storage.environments.get(result.env.id))!.flagStateVersion;
      if (result.changes.length) {
        // After the commit, never awaited: a slow or failing destination must not delay or fail the mutation.
        services.notifier.notify(body.notifications, {
          type: 'flagmount.specificTargeting.updated',
          app: { id: app.id, name: app.name },
          environment: { id: result.env.id, name: result.env.name, isProduction: result.env.isProduction },
          entity: { type: kind.type, id: entityId },
          changes: result.changes.map((c) => ({ flagId: c.flag.id, flagKey: c.flag.key, flagName: c.flag.name, specificTargetValue: c.value })),
          changeDescription: body.changeDescription ?? null,
          actor: actor.actor,
          flagStateVersion,
          at: services.now().toISOString(),
        });
      }
      return { ...(await entityFlagsPage(services, app, result.env, result.entity)), flagStateVersion };
    },
  });
}
