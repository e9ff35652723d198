import type {
  CheckEventRecord,
  EntityFlagStatsRecord,
  EntityType,
  FeedbackRecord,
  FlagDailyStatsRecord,
  MembershipRecord,
  PromptEventRecord,
  TrackEventRecord,
} from '../storage/records.js';

/** An entity write from ingestion or the management upsert: attributes are merged into what is stored. */
export interface EntityUpsert {
  envId: string;
  type: EntityType;
  id: string;
  /** `undefined` keeps the stored name. */
  name?: string | null;
  attributes: Record<string, unknown>;
  at: string;
}

/** Everything one request asks to store; many requests' batches are committed in one transaction. */
export interface IngestBatch {
  entities?: EntityUpsert[];
  memberships?: MembershipRecord[];
  tracks?: TrackEventRecord[];
  checks?: CheckEventRecord[];
  prompts?: PromptEventRecord[];
  feedback?: FeedbackRecord[];
  entityStats?: EntityFlagStatsRecord[];
  dailyStats?: FlagDailyStatsRecord[];
}

export function batchSize(batch: IngestBatch): number {
  let n = 0;
  for (const list of Object.values(batch)) n += (list as unknown[] | undefined)?.length ?? 0;
  return n;
}

const earliest = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a <= b ? a : b);
const latest = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a >= b ? a : b);

/** Pre-aggregates stats deltas with the store's own merge rule, so a flush writes one row per key. */
export function mergeEntityStats(into: Map<string, EntityFlagStatsRecord>, rows: EntityFlagStatsRecord[]): void {
  for (const row of rows) {
    const key = `${row.envId}\u0000${row.entityType}\u0000${row.entityId}\u0000${row.flagKey}`;
    const prev = into.get(key);
    if (!prev) {
      into.set(key, { ...row });
      continue;
    }
    prev.firstExposureAt = earliest(prev.firstExposureAt, row.firstExposureAt);
    prev.lastExposureAt = latest(prev.lastExposureAt, row.lastExposureAt);
    prev.exposureCount += row.exposureCount;
    prev.lastCheckAt = latest(prev.lastCheckAt, row.lastCheckAt);
    prev.checkCount += row.checkCount;
    prev.firstTrackAt = earliest(prev.firstTrackAt, row.firstTrackAt);
    prev.lastTrackAt = latest(prev.lastTrackAt, row.lastTrackAt);
    prev.trackCount += row.trackCount;
  }
}

export function mergeDailyStats(into: Map<string, FlagDailyStatsRecord>, rows: FlagDailyStatsRecord[]): void {
  for (const row of rows) {
    const key = `${row.envId}\u0000${row.flagKey}\u0000${row.day}`;
    const prev = into.get(key);
    if (!prev) {
      into.set(key, { ...row });
      continue;
    }
    prev.checkCount += row.checkCount;
    prev.exposureCount += row.exposureCount;
    prev.trackCount += row.trackCount;
    prev.lastCheckAt = latest(prev.lastCheckAt, row.lastCheckAt);
    prev.lastTrackAt = latest(prev.lastTrackAt, row.lastTrackAt);
  }
}
