import type { Generated } from 'kysely';

/**
 * Table types as the database returns them. Values the two databases return differently are typed as the
 * union of both, and `codec.ts` turns them into record values:
 * - booleans: SQLite has no boolean type and returns 0/1; Postgres returns true/false;
 * - 64-bit integers (counts, event sequence numbers): `pg` returns int8 as a string to avoid precision loss;
 * - JSON columns are text on both (one code path; text also keeps key order exactly as written, which jsonb
 *   would not);
 * - timestamps are ISO 8601 strings, so that text order is time order.
 */
export type DbBool = boolean | number;
export type DbInt = number | string;
export type Json = string;

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface AppsTable {
  id: string;
  org_id: string;
  name: string;
  demo: DbBool;
  flag_key_format: string;
  created_at: string;
}

export interface EnvironmentsTable {
  id: string;
  app_id: string;
  name: string;
  is_production: DbBool;
  sort_order: number;
  flag_state_version: DbInt;
  publishable_key: string;
  secret_key: string;
  created_at: string;
}

export interface StagesTable {
  id: string;
  app_id: string;
  name: string;
  color: string;
  sort_order: number;
}

export interface SegmentsTable {
  id: string;
  app_id: string;
  name: string;
  type: string;
  filter: Json;
  created_at: string;
  updated_at: string;
}

export interface MembersTable {
  id: string;
  org_id: string;
  name: string;
  email: string;
  avatar_url: string | null;
}

export interface FlagsTable {
  id: string;
  app_id: string;
  key: string;
  name: string;
  description: string | null;
  stage_id: string | null;
  owner_user_id: string | null;
  parent_flag_id: string | null;
  archived: DbBool;
  permanent: DbBool;
  secret: DbBool;
  created_at: string;
  updated_at: string;
  rolled_out_to_everyone_at: string | null;
  code_refs_cleaned_up: DbBool;
  code_refs_marked_clean_user_name: string | null;
  code_refs_marked_clean_at: string | null;
}

export interface FlagTargetingTable {
  flag_id: string;
  env_id: string;
  version: DbInt;
  rules: Json;
  config_version: DbInt;
  variants: Json;
  updated_at: string;
  /** Added by migration 0003; NULL = no prerequisites. */
  prerequisites: Json | null;
}

export interface SpecificTargetsTable {
  flag_id: string;
  env_id: string;
  entity_type: string;
  entity_id: string;
  created_at: string;
}

export interface EntitiesTable {
  env_id: string;
  type: string;
  id: string;
  name: string | null;
  attributes: Json;
  created_at: string;
  updated_at: string;
}

export interface MembershipsTable {
  env_id: string;
  company_id: string;
  user_id: string;
  created_at: string;
}

/** Events have no natural key; `seq` keeps insertion order (the port lists them in insertion order). */
export interface TrackEventsTable {
  seq: Generated<DbInt>;
  id: string;
  env_id: string;
  user_id: string;
  company_id: string | null;
  event: string;
  attributes: Json;
  timestamp: string;
}

/** The recent-checks ring: slot `seq mod keep` of the environment, `seq` from `check_ring.head` (migration 0005). */
export interface CheckEventsTable {
  slot: DbInt;
  seq: DbInt;
  id: string;
  env_id: string;
  action: string;
  flag_key: string;
  targeting_version: DbInt | null;
  user_id: string | null;
  company_id: string | null;
  eval_context: Json | null;
  eval_result: Json | null;
  eval_rule_results: Json | null;
  eval_missing_fields: Json | null;
  timestamp: string;
}

/** Per environment, how many checks the ring has been handed: the next check's `seq`. */
export interface CheckRingTable {
  env_id: string;
  head: DbInt;
}

export interface PromptEventsTable {
  seq: Generated<DbInt>;
  id: string;
  env_id: string;
  action: string;
  feature_id: string | null;
  prompt_id: string | null;
  user_id: string;
  prompted_question: string | null;
  timestamp: string;
}

export interface FeedbackTable {
  id: string;
  env_id: string;
  user_id: string;
  company_id: string | null;
  flag_key: string | null;
  feature_id: string | null;
  prompt_id: string | null;
  question: string | null;
  prompted_question: string | null;
  source: string | null;
  score: number | null;
  comment: string | null;
  created_at: string;
  updated_at: string;
}

export interface EntityFlagStatsTable {
  env_id: string;
  entity_type: string;
  entity_id: string;
  flag_key: string;
  first_exposure_at: string | null;
  last_exposure_at: string | null;
  exposure_count: DbInt;
  last_check_at: string | null;
  check_count: DbInt;
  first_track_at: string | null;
  last_track_at: string | null;
  track_count: DbInt;
}

export interface FlagDailyStatsTable {
  env_id: string;
  flag_key: string;
  day: string;
  check_count: DbInt;
  exposure_count: DbInt;
  track_count: DbInt;
  last_check_at: string | null;
  last_track_at: string | null;
}

export interface AuditTable {
  id: string;
  org_id: string;
  app_id: string | null;
  env_id: string | null;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  change_description: string | null;
  before: Json | null;
  after: Json | null;
  created_at: string;
}

export interface ManagementKeysTable {
  id: string;
  org_id: string;
  name: string;
  scopes: Json;
  hash: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Committed change notices, for processes that learn of them by polling (see migrations/0001_initial.ts). */
export interface ChangeNoticesTable {
  seq: Generated<DbInt>;
  env_id: string;
  version: DbInt;
  origin: string;
  explicit: DbBool;
  created_at: string;
}

/** Scheduled targeting changes (migration 0003). */
export interface SchedulesTable {
  id: string;
  org_id: string;
  app_id: string;
  env_id: string;
  flag_id: string;
  flag_key: string;
  at: string;
  status: string;
  targeting: Json;
  created_by: string;
  created_at: string;
  applied_at: string | null;
  flag_state_version: DbInt | null;
  reason: string | null;
}

export interface Database {
  organizations: OrganizationsTable;
  apps: AppsTable;
  environments: EnvironmentsTable;
  stages: StagesTable;
  segments: SegmentsTable;
  members: MembersTable;
  flags: FlagsTable;
  flag_targeting: FlagTargetingTable;
  specific_targets: SpecificTargetsTable;
  entities: EntitiesTable;
  memberships: MembershipsTable;
  track_events: TrackEventsTable;
  check_events: CheckEventsTable;
  check_ring: CheckRingTable;
  prompt_events: PromptEventsTable;
  feedback: FeedbackTable;
  entity_flag_stats: EntityFlagStatsTable;
  flag_daily_stats: FlagDailyStatsTable;
  audit: AuditTable;
  management_keys: ManagementKeysTable;
  change_notices: ChangeNoticesTable;
  schedules: SchedulesTable;
}

export type TableName = keyof Database;
