import { mutate } from '../../domain/mutation.js';
import { withRolloutKeys } from '../../domain/rollout-keys.js';
import { addIssue, invalidRequest, notPossible, type Issues } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { PutTargetingBodySchema, TargetingMutationResponseSchema, TargetingParamsSchema, type PutTargetingBody } from '../../schemas/targeting.js';
import type { FlagTargetingRecord, StoredRule } from '../../storage/records.js';
import { validateFilter } from '@flagmount/engine';
import { sameJson } from '../canonical-json.js';
import { actorOf, loadApp, loadEnvironment, loadFlagByKey } from '../access.js';
import { refreshRolloutState } from './everyone.js';
import { emptyTargeting, toTargeting } from './targeting-view.js';


/**
 * Filter semantics the schema cannot express (a rollout's `key`, when sent, is the flag's: architecture.md), and
 * unique variant keys, → 400 invalid_request with field paths.
 */
function checkBody(body: PutTargetingBody, flagKey: string): void {
  const issues: Issues = {};
  const report = (prefix: string, filter: Parameters<typeof validateFilter>[0]) => {
    for (const issue of validateFilter(filter, { rolloutKey: flagKey })) addIssue(issues, issue.path ? `${prefix}.${issue.path}` : prefix, issue.message);
  };
  body.rules.forEach((rule, i) => report(`rules.${i}.filter`, rule.filter));
  const seen = new Set<string>();
  body.config?.variants.forEach((variant, i) => {
    report(`config.variants.${i}.filter`, variant.filter);
    if (seen.has(variant.key)) addIssue(issues, `config.variants.${i}.key`, `duplicate variant key "${variant.key}"`);
    seen.add(variant.key);
  });
  if (Object.keys(issues).length) throw invalidRequest('Invalid targeting', issues);
}

/**
 * Extension: replace a flag's rules (and, when `config` is sent, its config variants) in one environment. An
 * effective change bumps that environment once and the flag's targeting `version` there; a config change also
 * bumps `configVersion`. Sending what is stored changes nothing and bumps nothing. With `ifVersion`, the change
 * applies only to that targeting version (optimistic concurrency for editors such as the dashboard).
 */
export const putTargetingRoute = defineRoute({
  method: 'PUT',
  path: '/apps/{appId}/flags/{flagKey}/targeting/{envId}',
  operationId: 'putFlagTargeting',
  summary: "Replace a flag's targeting in an environment",
  surface: 'management',
  tags: ['Targeting'],
  auth: { kind: 'management', scope: 'write:flag:targeting' },
  params: TargetingParamsSchema,
  body: PutTargetingBodySchema,
  response: TargetingMutationResponseSchema,
  async handle({ params, body, principal, services }) {
    checkBody(body, params.flagKey);
    const app = await loadApp(services.storage, principal, params.appId);
    const { result, versions } = await mutate(services, actorOf(principal), async (tx) => {
      const [flag, env] = await Promise.all([loadFlagByKey(tx, app, params.flagKey), loadEnvironment(tx, app, params.envId)]);
      const issues: Issues = {};
      for (const [i, rule] of body.rules.entries()) {
        if (rule.segmentId === undefined) continue;
        const segment = await tx.segments.get(rule.segmentId);
        if (!segment || segment.appId !== app.id) addIssue(issues, `rules.${i}.segmentId`, `Segment ${rule.segmentId} is not a segment of this app`);
      }
      if (Object.keys(issues).length) throw notPossible('The targeting refers to unknown segments', issues);

      const stored = await tx.targeting.get(flag.id, env.id);
      const before = stored ?? emptyTargeting(flag, env);
      // Two people editing the same targeting: the second save is refused instead of silently overwriting.
      if (body.ifVersion !== undefined && body.ifVersion !== before.version) {
        throw notPossible('The targeting was changed since it was loaded', {
          ifVersion: [`is ${body.ifVersion}, but the targeting is now at version ${before.version}`],
        });
      }
      const rules: StoredRule[] = body.rules.map((r) => {
        const filter = withRolloutKeys(r.filter, flag.key);
        return r.segmentId ? { filter, segmentId: r.segmentId } : { filter };
      });
      const variants = body.config?.variants.map((v) => ({ ...v, filter: withRolloutKeys(v.filter, flag.key) })) ?? before.variants;
      const rulesChanged = !sameJson(rules, before.rules);
      const configChanged = !sameJson(variants, before.variants);
      if (!rulesChanged && !configChanged) return { flag, env, record: stored };

      const at = services.now().toISOString();
      const record: FlagTargetingRecord = {
        flagId: flag.id,
        envId: env.id,
        version: before.version + 1,
        rules,
        configVersion: before.configVersion + (configChanged ? 1 : 0),
        variants,
        updatedAt: at,
      };
      await tx.targeting.put(record);
      if (env.isProduction) await refreshRolloutState(tx, app.id, at, new Set([flag.id]));
      tx.changesFlagState(env.id);
      tx.recordAudit({ appId: app.id, envId: env.id, action: 'flag.targeting.updated', targetType: 'flag', targetId: flag.id, changeDescription: null, before: stored ?? null, after: record });
      return { flag, env, record };
    });
    const current = versions[result.env.id] ?? (await services.storage.environments.get(result.env.id))!.flagStateVersion;
    return { targeting: toTargeting(result.flag, result.env, result.record), flagStateVersion: current };
  },
});
