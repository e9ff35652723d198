import { validateFilter } from '@flagmount/engine';
import type { AuditInput, MutationTx } from '../../domain/mutation.js';
import { withRolloutKeys } from '../../domain/rollout-keys.js';
import { addIssue, invalidRequest, notPossible, type Issues } from '../../http/http-error.js';
import type { TargetingBody } from '../../schemas/targeting.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, EnvironmentRecord, FlagRecord, FlagTargetingRecord, StoredRule } from '../../storage/records.js';
import { sameJson } from '../canonical-json.js';
import { refreshRolloutState } from './everyone.js';
import { checkPrerequisites } from './prerequisites.js';
import { bumpDependents } from '../../domain/prerequisite-graph.js';
import { emptyTargeting } from './targeting-view.js';

/**
 * Filter semantics the schema cannot express (a rollout's `key`, when sent, is the flag's: architecture.md), unique
 * variant keys and unique prerequisites, → 400 invalid_request with field paths. `prefix` places the paths inside
 * a larger body (a schedule's `targeting`).
 */
export function checkTargetingBody(body: TargetingBody, flagKey: string, prefix = ''): void {
  const issues: Issues = {};
  const report = (path: string, filter: Parameters<typeof validateFilter>[0]) => {
    for (const issue of validateFilter(filter, { rolloutKey: flagKey })) addIssue(issues, `${prefix}${issue.path ? `${path}.${issue.path}` : path}`, issue.message);
  };
  body.rules.forEach((rule, i) => report(`rules.${i}.filter`, rule.filter));
  const seen = new Set<string>();
  body.config?.variants.forEach((variant, i) => {
    report(`config.variants.${i}.filter`, variant.filter);
    if (seen.has(variant.key)) addIssue(issues, `${prefix}config.variants.${i}.key`, `duplicate variant key "${variant.key}"`);
    seen.add(variant.key);
  });
  const required = new Set<string>();
  body.prerequisites?.forEach((p, i) => {
    if (required.has(p.flagKey)) addIssue(issues, `${prefix}prerequisites.${i}.flagKey`, `duplicate prerequisite "${p.flagKey}"`);
    required.add(p.flagKey);
  });
  if (Object.keys(issues).length) throw invalidRequest('Invalid targeting', issues);
}

export interface TargetingChange {
  app: AppRecord;
  flag: FlagRecord;
  env: EnvironmentRecord;
  body: TargetingBody;
  at: string;
  /** The audit entry of an effective change; `before` and `after` are filled in. */
  audit: Omit<AuditInput, 'before' | 'after' | 'appId' | 'envId' | 'targetType' | 'targetId'>;
}

/** Refuses references the schema cannot check: segments of another app, prerequisites that cannot be required. */
export async function checkTargetingReferences(tx: Repositories, change: Omit<TargetingChange, 'at' | 'audit'>): Promise<void> {
  const { app, flag, env, body } = change;
  const issues: Issues = {};
  for (const [i, rule] of body.rules.entries()) {
    if (rule.segmentId === undefined) continue;
    const segment = await tx.segments.get(rule.segmentId);
    if (!segment || segment.appId !== app.id) addIssue(issues, `rules.${i}.segmentId`, `Segment ${rule.segmentId} is not a segment of this app`);
  }
  if (Object.keys(issues).length) throw notPossible('The targeting refers to unknown segments', issues);
  if (body.prerequisites) await checkPrerequisites(tx, app, flag, env, body.prerequisites);
}

/**
 * Replaces a flag's targeting in one environment, inside a mutation: an effective change bumps that environment once,
 * the flag's targeting `version` there (and `configVersion` when the config changed), and the version of every flag
 * standing on it through prerequisites (what they serve inlines this flag's rules). Sending what is stored changes
 * nothing. Resolves the stored row afterwards and whether it changed.
 */
export async function applyTargeting(
  tx: MutationTx,
  change: TargetingChange,
): Promise<{ record: FlagTargetingRecord | undefined; changed: boolean }> {
  const { app, flag, env, body, at } = change;
  await checkTargetingReferences(tx, change);
  const stored = await tx.targeting.get(flag.id, env.id);
  const { record, rulesChanged, configChanged } = proposedTargeting(flag, env, stored, body, at);
  if (!rulesChanged && !configChanged) return { record: stored, changed: false };
  await tx.targeting.put(record);
  if (rulesChanged) await bumpDependents(tx, app.id, env.id, flag.key, at);
  if (env.isProduction) await refreshRolloutState(tx, app.id, at, new Set([flag.id]));
  tx.changesFlagState(env.id);
  tx.recordAudit({ ...change.audit, appId: app.id, envId: env.id, targetType: 'flag', targetId: flag.id, before: stored ?? null, after: record });
  return { record, changed: true };
}

/**
 * The row `body` makes of the stored one (rollout keys filled in; config and prerequisites kept when omitted), and
 * what it changes. Pure: a preview evaluates it without writing it.
 */
export function proposedTargeting(
  flag: FlagRecord,
  env: EnvironmentRecord,
  stored: FlagTargetingRecord | undefined,
  body: TargetingBody,
  at: string,
): { record: FlagTargetingRecord; rulesChanged: boolean; configChanged: boolean } {
  const before = stored ?? emptyTargeting(flag, env);
  const rules: StoredRule[] = body.rules.map((r) => {
    const filter = withRolloutKeys(r.filter, flag.key);
    return r.segmentId ? { filter, segmentId: r.segmentId } : { filter };
  });
  const variants = body.config?.variants.map((v) => ({ ...v, filter: withRolloutKeys(v.filter, flag.key) })) ?? before.variants;
  const prerequisites = body.prerequisites ?? before.prerequisites ?? [];
  const rulesChanged = !sameJson(rules, before.rules) || !sameJson(prerequisites, before.prerequisites ?? []);
  const configChanged = !sameJson(variants, before.variants);
  const record: FlagTargetingRecord = {
    flagId: flag.id,
    envId: env.id,
    version: before.version + 1,
    rules,
    configVersion: before.configVersion + (configChanged ? 1 : 0),
    variants,
    updatedAt: at,
    ...(prerequisites.length ? { prerequisites } : {}),
  };
  return { record, rulesChanged, configChanged };
}

