import type { EntityFlagStatsRecord, EntityType, FlagDailyStatsRecord } from '../../storage/records.js';

/**
 * Stats deltas behind management rows 8/10 and the flag list (architecture.md, "Exposure, check, track"):
 * a check is a flag event, counted for the user and the company of its evalContext; an exposure is a check whose
 * evalResult is `true`; a track is an `/event` whose name equals a flag key of the environment.
 */
export interface StatsDeltas {
  entityStats: EntityFlagStatsRecord[];
  dailyStats: FlagDailyStatsRecord[];
}

export const emptyStats = (): StatsDeltas => ({ entityStats: [], dailyStats: [] });

const day = (at: string) => at.slice(0, 10);

function entityRow(envId: string, entityType: EntityType, entityId: string, flagKey: string): EntityFlagStatsRecord {
  return {
    envId,
    entityType,
    entityId,
    flagKey,
    firstExposureAt: null,
    lastExposureAt: null,
    exposureCount: 0,
    lastCheckAt: null,
    checkCount: 0,
    firstTrackAt: null,
    lastTrackAt: null,
    trackCount: 0,
  };
}

export interface CheckFact {
  envId: string;
  flagKey: string;
  userId: string | null;
  companyId: string | null;
  exposure: boolean;
  at: string;
}

export function addCheck(into: StatsDeltas, fact: CheckFact): void {
  addActivity(into, fact, 'check', fact.exposure, (row) => {
    row.checkCount = 1;
    row.lastCheckAt = fact.at;
    if (fact.exposure) {
      row.exposureCount = 1;
      row.firstExposureAt = fact.at;
      row.lastExposureAt = fact.at;
    }
  });
}

export interface TrackFact {
  envId: string;
  flagKey: string;
  userId: string;
  companyId: string | null;
  at: string;
}

export function addTrack(into: StatsDeltas, fact: TrackFact): void {
  addActivity(into, fact, 'track', false, (row) => {
    row.trackCount = 1;
    row.firstTrackAt = fact.at;
    row.lastTrackAt = fact.at;
  });
}

/** One check or track: a delta for its user and its company, and one for the flag's day. */
function addActivity(
  into: StatsDeltas,
  fact: { envId: string; flagKey: string; userId: string | null; companyId: string | null; at: string },
  kind: 'check' | 'track',
  exposure: boolean,
  fill: (row: EntityFlagStatsRecord) => void,
): void {
  const entities: Array<[EntityType, string | null]> = [
    ['user', fact.userId],
    ['company', fact.companyId],
  ];
  for (const [type, id] of entities) {
    if (id === null) continue;
    const row = entityRow(fact.envId, type, id, fact.flagKey);
    fill(row);
    into.entityStats.push(row);
  }
  const check = kind === 'check';
  into.dailyStats.push({
    envId: fact.envId,
    flagKey: fact.flagKey,
    day: day(fact.at),
    checkCount: check ? 1 : 0,
    exposureCount: exposure ? 1 : 0,
    trackCount: check ? 0 : 1,
    lastCheckAt: check ? fact.at : null,
    lastTrackAt: check ? null : fact.at,
  });
}
