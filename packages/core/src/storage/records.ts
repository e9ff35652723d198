import type { ConfigVariant, Filter } from '@flagmount/engine';

/**
 * Rows as the storage port reads and writes them. They are the domain's persistent state, independent of
 * any HTTP shape: the API schemas in `../schemas` are projections of these. Timestamps are ISO 8601 UTC strings.
 */

export type FlagKeyFormat =
  | 'custom'
  | 'pascalCase'
  | 'camelCase'
  | 'snakeCaseUpper'
  | 'snakeCaseLower'
  | 'kebabCaseUpper'
  | 'kebabCaseLower';

export type EntityType = 'user' | 'company';

export interface OrganizationRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface AppRecord {
  id: string;
  orgId: string;
  name: string;
  demo: boolean;
  flagKeyFormat: FlagKeyFormat;
  createdAt: string;
}

export interface EnvironmentRecord {
  id: string;
  appId: string;
  name: string;
  isProduction: boolean;
  order: number;
  flagStateVersion: number;
  publishableKey: string;
  secretKey: string;
  createdAt: string;
}

export interface StageRecord {
  id: string;
  appId: string;
  name: string;
  color: string;
  order: number;
}

export interface SegmentRecord {
  id: string;
  appId: string;
  name: string;
  type: 'all' | 'custom';
  filter: Filter;
  createdAt: string;
  updatedAt: string;
}

/** A person of the organisation: flag owners and audit actors. */
export interface MemberRecord {
  id: string;
  orgId: string;
  name: string;
  email: string;
  avatarUrl: string | null;
}

export interface FlagRecord {
  id: string;
  appId: string;
  key: string;
  name: string;
  description: string | null;
  stageId: string | null;
  ownerUserId: string | null;
  parentFlagId: string | null;
  archived: boolean;
  permanent: boolean;
  secret: boolean;
  createdAt: string;
  updatedAt: string;
  rolledOutToEveryoneAt: string | null;
  codeRefsCleanedUp: boolean;
  codeRefsMarkedCleanUserName: string | null;
  codeRefsMarkedCleanAt: string | null;
}

/**
 * A targeting rule as stored: the filter of `/features`, optionally AND-ed with a segment's filter. Segments are
 * expanded when a snapshot is built, so that SDKs evaluating `/features` locally never see a segment reference.
 */
export interface StoredRule {
  filter: Filter;
  segmentId?: string;
}

/** A flag's rules and remote config in one environment. `version` is the flag's targetingVersion there. */
export interface FlagTargetingRecord {
  flagId: string;
  envId: string;
  version: number;
  rules: StoredRule[];
  configVersion: number;
  variants: ConfigVariant[];
  updatedAt: string;
  /** Flags of the same app this flag requires (absent = none); evaluated before its rules. */
  prerequisites?: PrerequisiteRecord[];
}

/** The flag is on only if flag `flagKey` evaluates to `isEnabled` for the same context. */
export interface PrerequisiteRecord {
  flagKey: string;
  isEnabled: boolean;
}

/** A specific-targeting override (management rows 9/11): the entity gets the flag whatever the rules say. */
export interface SpecificTargetRecord {
  flagId: string;
  envId: string;
  entityType: EntityType;
  entityId: string;
  createdAt: string;
}

export interface EntityRecord {
  envId: string;
  type: EntityType;
  id: string;
  name: string | null;
  attributes: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface MembershipRecord {
  envId: string;
  companyId: string;
  userId: string;
  createdAt: string;
}

export interface TrackEventRecord {
  id: string;
  envId: string;
  userId: string;
  companyId: string | null;
  event: string;
  attributes: Record<string, unknown>;
  timestamp: string;
}

export interface CheckEventRecord {
  id: string;
  envId: string;
  action: string;
  flagKey: string;
  targetingVersion: number | null;
  userId: string | null;
  companyId: string | null;
  evalContext: Record<string, unknown> | null;
  evalResult: unknown;
  evalRuleResults: boolean[] | null;
  evalMissingFields: string[] | null;
  timestamp: string;
}

export interface PromptEventRecord {
  id: string;
  envId: string;
  action: string;
  featureId: string | null;
  promptId: string | null;
  userId: string;
  promptedQuestion: string | null;
  timestamp: string;
}

export interface FeedbackRecord {
  id: string;
  envId: string;
  userId: string;
  companyId: string | null;
  flagKey: string | null;
  featureId: string | null;
  promptId: string | null;
  question: string | null;
  promptedQuestion: string | null;
  source: string | null;
  score: number | null;
  comment: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Aggregates behind management rows 8/10, kept per (environment, entity, flag). Stores merge a delta into the
 * row: counts add, `first*` keep the earliest non-null value, `last*` the latest.
 */
export interface EntityFlagStatsRecord {
  envId: string;
  entityType: EntityType;
  entityId: string;
  flagKey: string;
  firstExposureAt: string | null;
  lastExposureAt: string | null;
  exposureCount: number;
  lastCheckAt: string | null;
  checkCount: number;
  firstTrackAt: string | null;
  lastTrackAt: string | null;
  trackCount: number;
}

/** Per (environment, flag, UTC day) activity: the flag list's lastCheckAt/lastTrackAt and the activity chart. */
export interface FlagDailyStatsRecord {
  envId: string;
  flagKey: string;
  day: string; // YYYY-MM-DD
  checkCount: number;
  /** Checks of that day whose evalResult was `true` (architecture.md, "Exposure, check, track"). */
  exposureCount: number;
  trackCount: number;
  lastCheckAt: string | null;
  lastTrackAt: string | null;
}

export interface AuditRecord {
  id: string;
  orgId: string;
  appId: string | null;
  envId: string | null;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  changeDescription: string | null;
  before: unknown;
  after: unknown;
  createdAt: string;
}

export type ManagementScope = 'read' | 'write:flags' | 'write:flag:targeting' | 'write:entities' | 'admin';

export interface ManagementKeyRecord {
  id: string;
  orgId: string;
  name: string;
  scopes: ManagementScope[];
  /** SHA-256 hex of the whole key; the key itself is shown once and never stored. */
  hash: string;
  /** The first characters of the key, so a person can tell keys apart. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export type ScheduleStatus = 'pending' | 'applied' | 'cancelled' | 'failed';

/**
 * A targeting change to apply at `at`: `targeting` is the body of `PUT …/targeting/{envId}` as sent (rules, config,
 * prerequisites), validated when scheduled and again when applied.
 */
export interface ScheduleRecord {
  id: string;
  orgId: string;
  appId: string;
  envId: string;
  flagId: string;
  flagKey: string;
  at: string;
  status: ScheduleStatus;
  targeting: Record<string, unknown>;
  /** The actor (management key id, or a person) who scheduled it: the applied change is audited under this name. */
  createdBy: string;
  createdAt: string;
  appliedAt: string | null;
  /** The environment's flagStateVersion the applied change produced. */
  flagStateVersion: number | null;
  /** Why it failed or who cancelled it. */
  reason: string | null;
}
