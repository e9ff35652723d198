import type {
  AppRecord,
  AuditRecord,
  CheckEventRecord,
  EntityFlagStatsRecord,
  EntityRecord,
  EntityType,
  EnvironmentRecord,
  FeedbackRecord,
  FlagDailyStatsRecord,
  FlagRecord,
  FlagTargetingRecord,
  ManagementKeyRecord,
  MemberRecord,
  MembershipRecord,
  OrganizationRecord,
  PromptEventRecord,
  Repositories,
  SegmentRecord,
  SpecificTargetRecord,
  StageRecord,
  TrackEventRecord,
} from '@flagmount/core';
import { newFlagRecord } from '@flagmount/core';

/** Filter and rule shapes, through core's records (so this package needs only `@flagmount/core`). */
export type Filter = SegmentRecord['filter'];
export type TargetingRule = FlagTargetingRecord['rules'][number];

/**
 * Builders of valid records. Every builder takes overrides; fields that must be unique (SDK keys, key hashes,
 * flag keys) derive from the id, so `environment({ id: 'env_b' })` never collides with `environment()`.
 * Ids are lowercase ASCII of one shape, so any collation sorts them alike.
 */

const EPOCH = Date.UTC(2024, 0, 1);

/** Builders hand out deep copies: mutating one record never changes another, nor the samples. */
const fresh = <T>(record: T): T => structuredClone(record);

/** An ISO timestamp `seconds` after 2024-01-01T00:00:00.000Z, in the canonical `toISOString()` form. */
export function at(seconds: number): string {
  return new Date(EPOCH + seconds * 1000).toISOString();
}

/** The UTC day `days` after 2024-01-01, as YYYY-MM-DD. */
export function day(days: number): string {
  return at(days * 86_400).slice(0, 10);
}

export const sampleFilter: Filter = {
  type: 'group',
  operator: 'and',
  filters: [
    { type: 'context', field: 'company.plan', operator: 'ANY_OF', values: ['pro', 'enterprise'] },
    { type: 'negation', filter: { type: 'context', field: 'user.email', operator: 'CONTAINS', values: ['@test'] } },
    { type: 'rolloutPercentage', key: 'flag_key_a', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 50_000 },
  ],
};

export const sampleRules: TargetingRule[] = [
  { filter: sampleFilter },
  { filter: { type: 'context', field: 'user.id', operator: 'ANY_OF', values: ['user_a', 'user_b'] } },
];

/** JSON that must survive a round trip through any store: nesting, arrays, null, numbers, non-ASCII. */
export const sampleAttributes: Record<string, unknown> = {
  plan: 'pro',
  seats: 12,
  ratio: 0.25,
  beta: true,
  tags: ['a', 'b'],
  nested: { deep: [1, 'x', null, { y: false }] },
  label: 'Zoë — 北京 🚀',
};

export function organization(o: Partial<OrganizationRecord> = {}): OrganizationRecord {
  return fresh({ id: 'org_a', name: 'Acme', createdAt: at(0), ...o });
}

export function app(o: Partial<AppRecord> = {}): AppRecord {
  return fresh({ id: 'app_a', orgId: 'org_a', name: 'Web', demo: false, flagKeyFormat: 'custom', createdAt: at(0), ...o });
}

export function environment(o: Partial<EnvironmentRecord> = {}): EnvironmentRecord {
  const id = o.id ?? 'env_a';
  return fresh({
    id,
    appId: 'app_a',
    name: 'Development',
    isProduction: false,
    order: 0,
    flagStateVersion: 0,
    publishableKey: `pub_${id}_0123456789abcdefghijklmn`,
    secretKey: `sec_${id}_0123456789abcdefghijklmn`,
    createdAt: at(0),
    ...o,
  });
}

export function stage(o: Partial<StageRecord> = {}): StageRecord {
  return fresh({ id: 'stage_a', appId: 'app_a', name: 'In development', color: '#336699', order: 0, ...o });
}

export function segment(o: Partial<SegmentRecord> = {}): SegmentRecord {
  return fresh({
    id: 'seg_a',
    appId: 'app_a',
    name: 'Paying',
    type: 'custom',
    filter: sampleFilter,
    createdAt: at(0),
    updatedAt: at(0),
    ...o,
  });
}

export function member(o: Partial<MemberRecord> = {}): MemberRecord {
  return fresh({ id: 'mem_a', orgId: 'org_a', name: 'Ada', email: 'ada@example.com', avatarUrl: null, ...o });
}

export function flag(o: Partial<FlagRecord> = {}): FlagRecord {
  const id = o.id ?? 'flag_a';
  return fresh(newFlagRecord({ id, appId: 'app_a', key: `key_${id}`, name: `Flag ${id}`, createdAt: at(0), updatedAt: at(0), ...o }));
}

export function targeting(o: Partial<FlagTargetingRecord> = {}): FlagTargetingRecord {
  return fresh({
    flagId: 'flag_a',
    envId: 'env_a',
    version: 1,
    rules: sampleRules,
    configVersion: 1,
    variants: [{ key: 'blue', payload: { color: 'blue', sizes: [1, 2] }, filter: { type: 'constant', value: true } }],
    updatedAt: at(0),
    ...o,
  });
}

export function specificTarget(o: Partial<SpecificTargetRecord> = {}): SpecificTargetRecord {
  return fresh({ flagId: 'flag_a', envId: 'env_a', entityType: 'user', entityId: 'user_a', createdAt: at(0), ...o });
}

export function entity(o: Partial<EntityRecord> & { type?: EntityType } = {}): EntityRecord {
  return fresh({
    envId: 'env_a',
    type: 'user',
    id: 'user_a',
    name: 'Ada',
    attributes: sampleAttributes,
    createdAt: at(0),
    updatedAt: at(0),
    ...o,
  });
}

export function membership(o: Partial<MembershipRecord> = {}): MembershipRecord {
  return fresh({ envId: 'env_a', companyId: 'comp_a', userId: 'user_a', createdAt: at(0), ...o });
}

export function trackEvent(o: Partial<TrackEventRecord> = {}): TrackEventRecord {
  return fresh({
    id: 'trk_a',
    envId: 'env_a',
    userId: 'user_a',
    companyId: null,
    event: 'key_flag_a',
    attributes: { source: 'button', n: 3 },
    timestamp: at(0),
    ...o,
  });
}

export function checkEvent(o: Partial<CheckEventRecord> = {}): CheckEventRecord {
  return fresh({
    id: 'chk_a',
    envId: 'env_a',
    action: 'check-is-enabled',
    flagKey: 'key_flag_a',
    targetingVersion: 1,
    userId: 'user_a',
    companyId: 'comp_a',
    evalContext: { user: { id: 'user_a' }, company: { id: 'comp_a', plan: 'pro' } },
    evalResult: true,
    evalRuleResults: [true, false],
    evalMissingFields: ['company.size'],
    timestamp: at(0),
    ...o,
  });
}

export function promptEvent(o: Partial<PromptEventRecord> = {}): PromptEventRecord {
  return fresh({
    id: 'prm_a',
    envId: 'env_a',
    action: 'received',
    featureId: 'flag_a',
    promptId: 'prompt_a',
    userId: 'user_a',
    promptedQuestion: 'How do you like it?',
    timestamp: at(0),
    ...o,
  });
}

export function feedback(o: Partial<FeedbackRecord> = {}): FeedbackRecord {
  return fresh({
    id: 'fb_a',
    envId: 'env_a',
    userId: 'user_a',
    companyId: 'comp_a',
    flagKey: 'key_flag_a',
    featureId: null,
    promptId: null,
    question: 'How satisfied are you?',
    promptedQuestion: null,
    source: 'sdk',
    score: 4,
    comment: 'Très bien',
    createdAt: at(0),
    updatedAt: at(0),
    ...o,
  });
}

export function entityFlagStats(o: Partial<EntityFlagStatsRecord> = {}): EntityFlagStatsRecord {
  return fresh({
    envId: 'env_a',
    entityType: 'user',
    entityId: 'user_a',
    flagKey: 'key_flag_a',
    firstExposureAt: null,
    lastExposureAt: null,
    exposureCount: 0,
    lastCheckAt: null,
    checkCount: 0,
    firstTrackAt: null,
    lastTrackAt: null,
    trackCount: 0,
    ...o,
  });
}

export function flagDailyStats(o: Partial<FlagDailyStatsRecord> = {}): FlagDailyStatsRecord {
  return fresh({
    envId: 'env_a',
    flagKey: 'key_flag_a',
    day: day(0),
    checkCount: 0,
    exposureCount: 0,
    trackCount: 0,
    lastCheckAt: null,
    lastTrackAt: null,
    ...o,
  });
}

export function audit(o: Partial<AuditRecord> = {}): AuditRecord {
  return fresh({
    id: 'aud_a',
    orgId: 'org_a',
    appId: 'app_a',
    envId: null,
    actor: 'key:key_a',
    action: 'flag.create',
    targetType: 'flag',
    targetId: 'flag_a',
    changeDescription: 'Created flag',
    before: null,
    after: { key: 'key_flag_a', archived: false, rules: [{ n: 1 }] },
    createdAt: at(0),
    ...o,
  });
}

export function managementKey(o: Partial<ManagementKeyRecord> = {}): ManagementKeyRecord {
  const id = o.id ?? 'key_a';
  return fresh({
    id,
    orgId: 'org_a',
    name: 'CI',
    scopes: ['read', 'write:flags'],
    hash: `hash_${id}_${'0'.repeat(48)}`,
    prefix: 'fmk_ab12',
    createdAt: at(0),
    lastUsedAt: null,
    revokedAt: null,
    ...o,
  });
}

/** Inserts the parents most checks need: org_a, app_a, env_a (in that order, for stores with foreign keys). */
export async function seedBase(repos: Repositories): Promise<void> {
  await repos.organizations.insert(organization());
  await repos.apps.insert(app());
  await repos.environments.insert(environment());
}

/** Inserts a small, consistent world with rows in every table of the port. */
export async function seedWorld(repos: Repositories): Promise<void> {
  await seedBase(repos);
  await repos.organizations.insert(organization({ id: 'org_b', name: 'Beta', createdAt: at(5) }));
  await repos.apps.insert(app({ id: 'app_b', name: 'Mobile', createdAt: at(1) }));
  await repos.environments.insert(environment({ id: 'env_b', name: 'Production', order: 1, isProduction: true }));
  await repos.stages.insert(stage());
  await repos.stages.insert(stage({ id: 'stage_b', name: 'Unused', order: 1 }));
  await repos.segments.insert(segment({ id: 'seg_all', name: 'All', type: 'all', filter: { type: 'constant', value: true } }));
  await repos.members.upsert(member());
  await repos.flags.insert(flag({ stageId: 'stage_a', ownerUserId: 'mem_a', description: 'First' }));
  await repos.flags.insert(flag({ id: 'flag_b', parentFlagId: 'flag_a', createdAt: at(1) }));
  await repos.targeting.put(targeting());
  await repos.entities.put(entity());
  await repos.entities.put(entity({ type: 'company', id: 'comp_a', name: 'Acme Inc' }));
  await repos.entities.addMembership(membership());
  await repos.specificTargets.add(specificTarget());
  await repos.events.insertTracks([trackEvent(), trackEvent({ id: 'trk_b', companyId: 'comp_a', timestamp: at(1) })]);
  await repos.events.insertChecks([checkEvent(), checkEvent({ id: 'chk_b', evalResult: { key: 'blue', payload: 1 } })]);
  await repos.events.insertPromptEvents([promptEvent()]);
  await repos.feedback.put(feedback());
  await repos.stats.mergeEntityFlagStats([entityFlagStats({ checkCount: 2, lastCheckAt: at(3) })]);
  await repos.stats.mergeFlagDailyStats([flagDailyStats({ checkCount: 2, lastCheckAt: at(3) })]);
  await repos.audit.insert(audit());
  await repos.managementKeys.insert(managementKey());
}
