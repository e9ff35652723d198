import type {
  AppRecord,
  AuditRecord,
  CheckEventRecord,
  EntityFlagStatsRecord,
  EntityRecord,
  EnvironmentRecord,
  FeedbackRecord,
  FlagDailyStatsRecord,
  FlagRecord,
  FlagTargetingRecord,
  ManagementKeyRecord,
  ScheduleRecord,
  MemberRecord,
  MembershipRecord,
  OrganizationRecord,
  PromptEventRecord,
  SegmentRecord,
  SpecificTargetRecord,
  StageRecord,
  TrackEventRecord,
} from '@flagmount/core';

/** The row type of every table of the memory store. The names are also the keys of `dump()`. */
export interface Rows {
  organizations: OrganizationRecord;
  apps: AppRecord;
  environments: EnvironmentRecord;
  stages: StageRecord;
  segments: SegmentRecord;
  members: MemberRecord;
  flags: FlagRecord;
  targeting: FlagTargetingRecord;
  specificTargets: SpecificTargetRecord;
  entities: EntityRecord;
  memberships: MembershipRecord;
  trackEvents: TrackEventRecord;
  checkEvents: CheckEventRecord;
  promptEvents: PromptEventRecord;
  feedback: FeedbackRecord;
  entityFlagStats: EntityFlagStatsRecord;
  flagDailyStats: FlagDailyStatsRecord;
  audit: AuditRecord;
  managementKeys: ManagementKeyRecord;
  schedules: ScheduleRecord;
}

export type TableName = keyof Rows;

export interface TableSpec<R> {
  readonly name: TableName;
  /** Every column, exactly once (the type makes the list exhaustive): rows are normalised to these. */
  readonly columns: Readonly<Record<keyof R & string, true>>;
  /** The primary key, encoded with `key(...)`. */
  readonly key: (row: R) => string;
  /** Secondary unique indexes: index name → the values a row holds in it. */
  readonly unique?: Readonly<Record<string, (row: R) => string[]>>;
  /** `dump()` order: by primary key (default), or in insertion order (event logs, whose order is their meaning). */
  readonly dumpOrder?: 'key' | 'insertion';
}

/** Encodes a (composite) key; NUL sorts first, so encoded keys sort like their parts. */
export function key(...parts: string[]): string {
  return parts.join('\u0000');
}

function spec<N extends TableName>(s: TableSpec<Rows[N]> & { name: N }): TableSpec<Rows[N]> {
  return s;
}

export const tableSpecs: { readonly [N in TableName]: TableSpec<Rows[N]> } = {
  organizations: spec({
    name: 'organizations',
    columns: { id: true, name: true, createdAt: true },
    key: (r) => key(r.id),
  }),
  apps: spec({
    name: 'apps',
    columns: { id: true, orgId: true, name: true, demo: true, flagKeyFormat: true, createdAt: true },
    key: (r) => key(r.id),
  }),
  environments: spec({
    name: 'environments',
    columns: {
      id: true,
      appId: true,
      name: true,
      isProduction: true,
      order: true,
      flagStateVersion: true,
      publishableKey: true,
      secretKey: true,
      createdAt: true,
    },
    key: (r) => key(r.id),
    // One namespace for both kinds: `getBySdkKey` must find exactly one environment.
    unique: { sdkKey: (r) => [r.publishableKey, r.secretKey] },
  }),
  stages: spec({
    name: 'stages',
    columns: { id: true, appId: true, name: true, color: true, order: true },
    key: (r) => key(r.id),
  }),
  segments: spec({
    name: 'segments',
    columns: { id: true, appId: true, name: true, type: true, filter: true, createdAt: true, updatedAt: true },
    key: (r) => key(r.id),
  }),
  members: spec({
    name: 'members',
    columns: { id: true, orgId: true, name: true, email: true, avatarUrl: true },
    key: (r) => key(r.id),
  }),
  flags: spec({
    name: 'flags',
    columns: {
      id: true,
      appId: true,
      key: true,
      name: true,
      description: true,
      stageId: true,
      ownerUserId: true,
      parentFlagId: true,
      archived: true,
      permanent: true,
      secret: true,
      createdAt: true,
      updatedAt: true,
      rolledOutToEveryoneAt: true,
      codeRefsCleanedUp: true,
      codeRefsMarkedCleanUserName: true,
      codeRefsMarkedCleanAt: true,
    },
    key: (r) => key(r.id),
    unique: { appKey: (r) => [key(r.appId, r.key)] },
  }),
  targeting: spec({
    name: 'targeting',
    columns: {
      flagId: true,
      envId: true,
      version: true,
      rules: true,
      configVersion: true,
      variants: true,
      updatedAt: true,
      prerequisites: true,
    },
    key: (r) => key(r.flagId, r.envId),
  }),
  specificTargets: spec({
    name: 'specificTargets',
    columns: { flagId: true, envId: true, entityType: true, entityId: true, createdAt: true },
    key: (r) => key(r.flagId, r.envId, r.entityType, r.entityId),
  }),
  entities: spec({
    name: 'entities',
    columns: { envId: true, type: true, id: true, name: true, attributes: true, createdAt: true, updatedAt: true },
    key: (r) => key(r.envId, r.type, r.id),
  }),
  memberships: spec({
    name: 'memberships',
    columns: { envId: true, companyId: true, userId: true, createdAt: true },
    key: (r) => key(r.envId, r.companyId, r.userId),
  }),
  trackEvents: spec({
    name: 'trackEvents',
    columns: { id: true, envId: true, userId: true, companyId: true, event: true, attributes: true, timestamp: true },
    key: (r) => key(r.id),
    dumpOrder: 'insertion',
  }),
  checkEvents: spec({
    name: 'checkEvents',
    columns: {
      id: true,
      envId: true,
      action: true,
      flagKey: true,
      targetingVersion: true,
      userId: true,
      companyId: true,
      evalContext: true,
      evalResult: true,
      evalRuleResults: true,
      evalMissingFields: true,
      timestamp: true,
    },
    key: (r) => key(r.id),
    dumpOrder: 'insertion',
  }),
  promptEvents: spec({
    name: 'promptEvents',
    columns: {
      id: true,
      envId: true,
      action: true,
      featureId: true,
      promptId: true,
      userId: true,
      promptedQuestion: true,
      timestamp: true,
    },
    key: (r) => key(r.id),
    dumpOrder: 'insertion',
  }),
  feedback: spec({
    name: 'feedback',
    columns: {
      id: true,
      envId: true,
      userId: true,
      companyId: true,
      flagKey: true,
      featureId: true,
      promptId: true,
      question: true,
      promptedQuestion: true,
      source: true,
      score: true,
      comment: true,
      createdAt: true,
      updatedAt: true,
    },
    key: (r) => key(r.envId, r.id),
  }),
  entityFlagStats: spec({
    name: 'entityFlagStats',
    columns: {
      envId: true,
      entityType: true,
      entityId: true,
      flagKey: true,
      firstExposureAt: true,
      lastExposureAt: true,
      exposureCount: true,
      lastCheckAt: true,
      checkCount: true,
      firstTrackAt: true,
      lastTrackAt: true,
      trackCount: true,
    },
    key: (r) => key(r.envId, r.entityType, r.entityId, r.flagKey),
  }),
  flagDailyStats: spec({
    name: 'flagDailyStats',
    columns: {
      envId: true,
      flagKey: true,
      day: true,
      checkCount: true,
      exposureCount: true,
      trackCount: true,
      lastCheckAt: true,
      lastTrackAt: true,
    },
    key: (r) => key(r.envId, r.flagKey, r.day),
  }),
  audit: spec({
    name: 'audit',
    columns: {
      id: true,
      orgId: true,
      appId: true,
      envId: true,
      actor: true,
      action: true,
      targetType: true,
      targetId: true,
      changeDescription: true,
      before: true,
      after: true,
      createdAt: true,
    },
    key: (r) => key(r.id),
  }),
  managementKeys: spec({
    name: 'managementKeys',
    columns: {
      id: true,
      orgId: true,
      name: true,
      scopes: true,
      hash: true,
      prefix: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
    },
    key: (r) => key(r.id),
    unique: { hash: (r) => [r.hash] },
  }),
  schedules: spec({
    name: 'schedules',
    columns: {
      id: true,
      orgId: true,
      appId: true,
      envId: true,
      flagId: true,
      flagKey: true,
      at: true,
      status: true,
      targeting: true,
      createdBy: true,
      createdAt: true,
      appliedAt: true,
      flagStateVersion: true,
      reason: true,
    },
    key: (r) => key(r.id),
  }),
};

export const tableNames = Object.keys(tableSpecs) as TableName[];

/** The committed rows of one table, with its secondary unique indexes (index → value → primary key). */
export class Table<R> {
  readonly rows = new Map<string, R>();
  private readonly indexes = new Map<string, Map<string, string>>();

  constructor(readonly spec: TableSpec<R>) {
    for (const name of Object.keys(spec.unique ?? {})) this.indexes.set(name, new Map());
  }

  /** The primary key of the row holding `value` in unique index `index`, if any. */
  lookup(index: string, value: string): string | undefined {
    return this.indexes.get(index)?.get(value);
  }

  set(pk: string, row: R): void {
    const old = this.rows.get(pk);
    if (old !== undefined) this.unindex(pk, old);
    this.rows.set(pk, row); // an existing key keeps its place: Map order is insertion order
    for (const [name, values] of Object.entries(this.spec.unique ?? {})) {
      for (const value of values(row)) this.indexes.get(name)?.set(value, pk);
    }
  }

  delete(pk: string): void {
    const old = this.rows.get(pk);
    if (old === undefined) return;
    this.unindex(pk, old);
    this.rows.delete(pk);
  }

  clear(): void {
    this.rows.clear();
    for (const index of this.indexes.values()) index.clear();
  }

  private unindex(pk: string, row: R): void {
    for (const [name, values] of Object.entries(this.spec.unique ?? {})) {
      const index = this.indexes.get(name);
      // Only drop entries that still point at this row: a commit may have re-assigned the value already.
      for (const value of values(row)) if (index?.get(value) === pk) index.delete(value);
    }
  }
}

export type Tables = { readonly [N in TableName]: Table<Rows[N]> };

export function createTables(): Tables {
  const tables = {} as Record<TableName, Table<unknown>>;
  for (const name of tableNames) tables[name] = new Table(tableSpecs[name] as TableSpec<unknown>);
  return tables as unknown as Tables;
}
