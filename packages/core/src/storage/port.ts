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
  ScheduleRecord,
  ScheduleStatus,
  MemberRecord,
  MembershipRecord,
  OrganizationRecord,
  PromptEventRecord,
  SegmentRecord,
  SpecificTargetRecord,
  StageRecord,
  TrackEventRecord,
} from './records.js';

/**
 * The storage port. Every store (memory, SQLite, Postgres, a user's own) implements exactly this and passes
 * `@flagmount/storage-conformance`. It is deliberately narrow: no query builder, no business rules. The core
 * decides *what* to write; a store only guarantees *how* (atomically, durably, in order).
 *
 * Rules every store keeps (the conformance suite checks each):
 * - `get*` resolves `undefined` for a missing row; `update*` of a missing row resolves `false`.
 * - `insert*` of a row whose unique key exists rejects with a `ConflictError`.
 * - Everything inside `transaction(fn)` commits together or, if `fn` rejects, not at all.
 * - Transactions are serialisable with respect to each other: `environments.bumpVersion` never loses an increment,
 *   whatever the concurrency (several processes too, for a shared database).
 * - A change published inside a transaction reaches `onChange` listeners only after the commit, and is dropped
 *   on rollback. A store shared by several processes delivers it to listeners in every process.
 * - Lists come back in a stable order (documented per method). Text sorts by code unit (like `COLLATE "C"`).
 * - Timestamps are compared as text, so they are always `Date.prototype.toISOString()` strings (UTC, ms, `Z`) and
 *   come back exactly as written.
 * - Each repository call is atomic on its own (a batch insert with one duplicate id writes nothing).
 * - Inside `transaction(fn)`, use only `tx`: a `storage.*` call awaited inside `fn` may wait for the transaction
 *   itself, and a nested `transaction()` rejects. A store may run `fn` again after a deadlock or serialisation
 *   failure, so `fn` has no side effects outside `tx`.
 * - Publishable and secret keys are unique per column; their prefixes make them distinct across columns.
 * - `dump()` names tables as the memory store does, each ordered by primary key, event tables in insertion order.
 */

export type Patch<T, K extends keyof T> = Partial<Omit<T, K>>;

export interface OrganizationRepository {
  get(id: string): Promise<OrganizationRecord | undefined>;
  /** By creation time, then id. */
  list(): Promise<OrganizationRecord[]>;
  insert(row: OrganizationRecord): Promise<void>;
  update(id: string, patch: Patch<OrganizationRecord, 'id' | 'createdAt'>): Promise<boolean>;
}

export interface AppRepository {
  get(id: string): Promise<AppRecord | undefined>;
  /** By creation time, then id; all organisations when `orgId` is omitted. */
  list(filter?: { orgId?: string }): Promise<AppRecord[]>;
  insert(row: AppRecord): Promise<void>;
  update(id: string, patch: Patch<AppRecord, 'id' | 'orgId' | 'createdAt'>): Promise<boolean>;
}

export interface EnvironmentRepository {
  get(id: string): Promise<EnvironmentRecord | undefined>;
  /** By `order`, then id. */
  listByApp(appId: string): Promise<EnvironmentRecord[]>;
  /** Every environment of every app, by app then order: used to poll versions and to load all snapshots. */
  listAll(): Promise<EnvironmentRecord[]>;
  /** The environment whose publishable or secret key equals `key` exactly. */
  getBySdkKey(key: string): Promise<EnvironmentRecord | undefined>;
  insert(row: EnvironmentRecord): Promise<void>;
  update(
    id: string,
    patch: Patch<EnvironmentRecord, 'id' | 'appId' | 'createdAt' | 'flagStateVersion'>,
  ): Promise<boolean>;
  /** Atomically adds 1 to `flagStateVersion` and resolves the new value; rejects with NotFoundError if missing. */
  bumpVersion(id: string): Promise<number>;
}

export interface StageRepository {
  get(id: string): Promise<StageRecord | undefined>;
  /** By `order`, then id. */
  listByApp(appId: string): Promise<StageRecord[]>;
  insert(row: StageRecord): Promise<void>;
  update(id: string, patch: Patch<StageRecord, 'id' | 'appId'>): Promise<boolean>;
  delete(id: string): Promise<boolean>;
}

export interface SegmentRepository {
  get(id: string): Promise<SegmentRecord | undefined>;
  /** By creation time, then id. */
  listByApp(appId: string): Promise<SegmentRecord[]>;
  insert(row: SegmentRecord): Promise<void>;
  update(id: string, patch: Patch<SegmentRecord, 'id' | 'appId' | 'createdAt'>): Promise<boolean>;
  delete(id: string): Promise<boolean>;
}

export interface MemberRepository {
  get(id: string): Promise<MemberRecord | undefined>;
  /** By name, then id. */
  listByOrg(orgId: string): Promise<MemberRecord[]>;
  /** Inserts or replaces the whole row. */
  upsert(row: MemberRecord): Promise<void>;
}

export interface FlagRepository {
  get(id: string): Promise<FlagRecord | undefined>;
  getByKey(appId: string, key: string): Promise<FlagRecord | undefined>;
  /** By creation time, then id. Unique key: (appId, key). */
  listByApp(appId: string): Promise<FlagRecord[]>;
  insert(row: FlagRecord): Promise<void>;
  update(id: string, patch: Patch<FlagRecord, 'id' | 'appId' | 'key' | 'createdAt'>): Promise<boolean>;
}

export interface TargetingRepository {
  get(flagId: string, envId: string): Promise<FlagTargetingRecord | undefined>;
  /** Every flag's targeting in one environment, by flagId. */
  listByEnv(envId: string): Promise<FlagTargetingRecord[]>;
  /** Inserts or replaces the row of (flagId, envId). */
  put(row: FlagTargetingRecord): Promise<void>;
}

export interface SpecificTargetRepository {
  /** Every override in an environment, by flagId, entityType, entityId. */
  listByEnv(envId: string): Promise<SpecificTargetRecord[]>;
  /** The overrides of one entity, by flagId. */
  listForEntity(envId: string, entityType: EntityType, entityId: string): Promise<SpecificTargetRecord[]>;
  /** Resolves false when the override already existed (nothing changed). */
  add(row: SpecificTargetRecord): Promise<boolean>;
  /** Resolves false when there was no such override. */
  remove(flagId: string, envId: string, entityType: EntityType, entityId: string): Promise<boolean>;
}

export interface EntityRepository {
  get(envId: string, type: EntityType, id: string): Promise<EntityRecord | undefined>;
  /** Many at once (remote context, batches), by id, without duplicates; missing ones are absent. */
  getMany(envId: string, type: EntityType, ids: string[]): Promise<EntityRecord[]>;
  /** Inserts or replaces the whole row (the core merges attributes before calling). */
  put(row: EntityRecord): Promise<void>;
  /** Deletes the entity, its memberships, its overrides and its stats. Resolves false when it did not exist. */
  delete(envId: string, type: EntityType, id: string): Promise<boolean>;
  /** Idempotent. */
  addMembership(row: MembershipRecord): Promise<void>;
  /** User ids of a company, ascending. */
  listCompanyUsers(envId: string, companyId: string): Promise<string[]>;
  /** Company ids of a user, ascending. */
  listUserCompanies(envId: string, userId: string): Promise<string[]>;
  /**
   * The ids and attributes of up to `limit` entities of one type with an id greater than `afterId` (from the first
   * when undefined), by id: a keyset page, so that a walk over a million entities (a targeting preview) holds one
   * page at a time, reading no more columns than it evaluates.
   */
  listAttributesPage(
    envId: string,
    type: EntityType,
    afterId: string | undefined,
    limit: number,
  ): Promise<Array<Pick<EntityRecord, 'id' | 'attributes'>>>;
  /**
   * Entities of one type in an environment whose id starts with, or whose name contains, `search` (ASCII letters
   * compared case-insensitively; every entity when it is empty), ascending by id, ids after `after` only, at most
   * `limit`. For looking people up (the dashboard), not for a hot path.
   */
  search(envId: string, type: EntityType, options: EntitySearch): Promise<EntityRecord[]>;
}

export interface EntitySearch {
  search: string;
  limit: number;
  after?: string;
}

export interface EventRepository {
  insertTracks(rows: TrackEventRecord[]): Promise<void>;
  /**
   * The recent-checks ring. With `keep`, each environment keeps at most `keep` check events: exactly its newest
   * `keep` while `keep` stays the same (after it changes, once `keep` more have arrived). A store overwrites in place
   * where it can, so storage stays flat however many checks arrive. Without `keep`, every check is kept. Check ids
   * need not be unique (nothing looks a check up by id).
   */
  insertChecks(rows: CheckEventRecord[], keep?: number): Promise<void>;
  insertPromptEvents(rows: PromptEventRecord[]): Promise<void>;
  /** The first `limit` rows in insertion order (for exports and tests). Event ids are unique per table. */
  listTracks(envId: string, limit: number): Promise<TrackEventRecord[]>;
  listChecks(envId: string, limit: number): Promise<CheckEventRecord[]>;
  listPromptEvents(envId: string, limit: number): Promise<PromptEventRecord[]>;
}

export interface FeedbackRepository {
  get(envId: string, id: string): Promise<FeedbackRecord | undefined>;
  /** Inserts or replaces the row of (envId, id). */
  put(row: FeedbackRecord): Promise<void>;
  /** Newest `createdAt` first, then id descending. */
  listByEnv(envId: string, limit: number): Promise<FeedbackRecord[]>;
}

export interface StatsRepository {
  /** Merges each delta into its row (counts add; first* earliest non-null; last* latest non-null). */
  mergeEntityFlagStats(deltas: EntityFlagStatsRecord[]): Promise<void>;
  /** By flagKey. */
  listEntityFlagStats(envId: string, entityType: EntityType, entityId: string): Promise<EntityFlagStatsRecord[]>;
  /** Same merge rule, per (envId, flagKey, day). */
  mergeFlagDailyStats(deltas: FlagDailyStatsRecord[]): Promise<void>;
  /** Rows of the given environments from `sinceDay` (inclusive), by envId, flagKey, day. */
  listFlagDailyStats(envIds: string[], sinceDay: string): Promise<FlagDailyStatsRecord[]>;
  /**
   * Per (environment, flag) over all time: counts summed, latest check/track, `day` the latest day with activity;
   * by envId, flagKey.
   */
  listFlagTotals(envIds: string[]): Promise<FlagDailyStatsRecord[]>;
}

/** Which audit rows `AuditRepository.list` returns; every field set narrows the rows (they combine with AND). */
export interface AuditListFilter {
  orgId: string;
  appId?: string;
  envId?: string;
  /** The stable actor id, exact: a management key id, `member:<id>`, `sdk:<envId>` or `system`. */
  actor?: string;
  /** The action, exact (`flag.created`), or every action that starts with `prefix` (`flag.`), case-sensitively. */
  action?: { exact: string } | { prefix: string };
  limit: number;
  /** An exclusive cursor on (createdAt, id), as returned by a previous page. */
  before?: { createdAt: string; id: string };
}

export interface AuditRepository {
  insert(row: AuditRecord): Promise<void>;
  /** Newest first, up to `limit` rows that match every filter (filtering happens before the limit). */
  list(filter: AuditListFilter): Promise<AuditRecord[]>;
}

export interface ManagementKeyRepository {
  get(id: string): Promise<ManagementKeyRecord | undefined>;
  getByHash(hash: string): Promise<ManagementKeyRecord | undefined>;
  /** By creation time, then id. */
  listByOrg(orgId: string): Promise<ManagementKeyRecord[]>;
  insert(row: ManagementKeyRecord): Promise<void>;
  update(id: string, patch: Patch<ManagementKeyRecord, 'id' | 'orgId' | 'hash' | 'createdAt'>): Promise<boolean>;
}

export interface ScheduleRepository {
  get(id: string): Promise<ScheduleRecord | undefined>;
  insert(row: ScheduleRecord): Promise<void>;
  /** A flag's schedules in one environment or all (`envId` omitted), by `at`, then id. */
  listByFlag(flagId: string, envId?: string): Promise<ScheduleRecord[]>;
  /** Up to `limit` pending schedules with `at` ≤ `now`, by `at`, then id. */
  listDue(now: string, limit: number): Promise<ScheduleRecord[]>;
  /**
   * Moves a *pending* schedule to `status` with the patch, as one conditional update: resolves false (changing
   * nothing) when it is no longer pending, so of several processes settling the same schedule exactly one wins.
   */
  settle(
    id: string,
    status: Exclude<ScheduleStatus, 'pending'>,
    patch: Pick<ScheduleRecord, 'appliedAt' | 'flagStateVersion' | 'reason'>,
  ): Promise<boolean>;
}

export interface Repositories {
  readonly organizations: OrganizationRepository;
  readonly apps: AppRepository;
  readonly environments: EnvironmentRepository;
  readonly stages: StageRepository;
  readonly segments: SegmentRepository;
  readonly members: MemberRepository;
  readonly flags: FlagRepository;
  readonly targeting: TargetingRepository;
  readonly specificTargets: SpecificTargetRepository;
  readonly entities: EntityRepository;
  readonly events: EventRepository;
  readonly feedback: FeedbackRepository;
  readonly stats: StatsRepository;
  readonly audit: AuditRepository;
  readonly managementKeys: ManagementKeyRepository;
  readonly schedules: ScheduleRepository;
}

/** A flag-state change: environment `envId` now has `flagStateVersion` = `version`. */
export interface ChangeNotice {
  envId: string;
  version: number;
}

export type ChangeListener = (change: ChangeNotice) => void;

export interface Transaction extends Repositories {
  /** Queues a change notice, delivered to every process's `onChange` listeners after (and only if) commit. */
  publishChange(envId: string, version: number): void;
}

export interface TransactionOptions {
  /**
   * `fn` only inserts new rows and merges counters (no read-then-write of existing rows, no flag state, no notices):
   * event ingestion. A store may run such transactions side by side with each other; one that cannot ignores this.
   */
  readonly appendOnly?: boolean;
}

export interface Storage extends Repositories {
  /** A short name for logs: 'memory', 'sqlite', 'postgres', …. */
  readonly kind: string;
  /** Creates or upgrades the schema. Idempotent; safe to run from several processes at once. */
  migrate(): Promise<void>;
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * How many append-only transactions are worth running at once. Absent or 1: the store writes one transaction at a
   * time (SQLite, memory), and ingestion then batches into one transaction after another.
   */
  readonly appendConcurrency?: number;
  /** Subscribes to committed changes (from this process and, for shared stores, from others). */
  onChange(listener: ChangeListener): () => void;
  /** Publishes a notice outside a transaction (e.g. after a restore); most code publishes through `Transaction`. */
  publishChange(envId: string, version: number): Promise<void>;
  /**
   * Retention (`retention.eventsDays`): deletes at most `limit` track events, prompt events and feedback rows
   * timestamped (feedback: created) before `before` (ISO), oldest first, in one short transaction that other writes
   * run beside; resolves how many it deleted. A store shared by several processes lets one of them prune at a time:
   * a call while another process prunes deletes nothing and resolves 0. Call again while it resolves `limit`.
   */
  pruneEvents(before: string, limit: number): Promise<number>;
  /** Every row of every table, in a stable order: for backups, tests and "nothing changed" checks. */
  dump(): Promise<StorageDump>;
  /** Stops timers and listeners and closes connections. Idempotent. */
  close(): Promise<void>;
}

export type StorageDump = Record<string, unknown[]>;

export const REPOSITORY_NAMES = [
  'organizations',
  'apps',
  'environments',
  'stages',
  'segments',
  'members',
  'flags',
  'targeting',
  'specificTargets',
  'entities',
  'events',
  'feedback',
  'stats',
  'audit',
  'managementKeys',
  'schedules',
] as const satisfies ReadonlyArray<keyof Repositories>;

/** The repositories of a store or transaction as a plain object (for wrapping without prototype tricks). */
export function repositoriesOf(source: Repositories): Repositories {
  const out: Partial<Record<keyof Repositories, unknown>> = {};
  for (const name of REPOSITORY_NAMES) out[name] = source[name];
  return out as unknown as Repositories;
}
