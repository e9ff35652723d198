import type { EntityFlagStatsRecord, FlagDailyStatsRecord, StatsRepository } from '@flagmount/core';
import { by, compare, copyAll, normalize } from '../rows.js';
import type { Db, TableView } from '../view.js';

type Stamp = string | null;

/** The earliest of two optional timestamps (null only when both are). */
export function earliest(a: Stamp, b: Stamp): Stamp {
  if (a === null) return b;
  if (b === null) return a;
  return compare(a, b) <= 0 ? a : b;
}

/** The latest of two optional timestamps (null only when both are). */
export function latest(a: Stamp, b: Stamp): Stamp {
  if (a === null) return b;
  if (b === null) return a;
  return compare(a, b) >= 0 ? a : b;
}

function mergeEntity(row: EntityFlagStatsRecord, delta: EntityFlagStatsRecord): EntityFlagStatsRecord {
  return {
    ...row,
    firstExposureAt: earliest(row.firstExposureAt, delta.firstExposureAt),
    lastExposureAt: latest(row.lastExposureAt, delta.lastExposureAt),
    exposureCount: row.exposureCount + delta.exposureCount,
    lastCheckAt: latest(row.lastCheckAt, delta.lastCheckAt),
    checkCount: row.checkCount + delta.checkCount,
    firstTrackAt: earliest(row.firstTrackAt, delta.firstTrackAt),
    lastTrackAt: latest(row.lastTrackAt, delta.lastTrackAt),
    trackCount: row.trackCount + delta.trackCount,
  };
}

function mergeDaily(row: FlagDailyStatsRecord, delta: FlagDailyStatsRecord): FlagDailyStatsRecord {
  return {
    ...row,
    checkCount: row.checkCount + delta.checkCount,
    exposureCount: row.exposureCount + delta.exposureCount,
    trackCount: row.trackCount + delta.trackCount,
    lastCheckAt: latest(row.lastCheckAt, delta.lastCheckAt),
    lastTrackAt: latest(row.lastTrackAt, delta.lastTrackAt),
  };
}

/** Merges deltas one after another (several deltas of one key in a batch add up too). */
function mergeAll<R>(view: TableView<R>, deltas: readonly R[], merge: (row: R, delta: R) => R): void {
  for (const delta of deltas) {
    const normalized = normalize(view, delta);
    const current = view.get(view.table.spec.key(normalized));
    view.write(current === undefined ? normalized : merge(current, normalized), 'upsert');
  }
}

export function statsRepository(db: Db): StatsRepository {
  return {
    async mergeEntityFlagStats(deltas) {
      mergeAll(db.entityFlagStats, deltas, mergeEntity);
    },
    async listEntityFlagStats(envId, entityType, entityId) {
      const rows = db.entityFlagStats
        .rows()
        .filter((r) => r.envId === envId && r.entityType === entityType && r.entityId === entityId);
      return copyAll(rows.sort(by((r) => r.flagKey)));
    },
    async mergeFlagDailyStats(deltas) {
      mergeAll(db.flagDailyStats, deltas, mergeDaily);
    },
    async listFlagDailyStats(envIds, sinceDay) {
      const envs = new Set(envIds);
      const rows = db.flagDailyStats.rows().filter((r) => envs.has(r.envId) && compare(r.day, sinceDay) >= 0);
      return copyAll(rows.sort(by((r) => r.envId, (r) => r.flagKey, (r) => r.day)));
    },
    async listFlagTotals(envIds) {
      const envs = new Set(envIds);
      const totals = new Map<string, FlagDailyStatsRecord>();
      for (const row of db.flagDailyStats.rows()) {
        if (!envs.has(row.envId)) continue;
        const id = `${row.envId}\u0000${row.flagKey}`;
        const total = totals.get(id);
        // `day` of a total is the latest day with activity.
        if (total === undefined) totals.set(id, { ...row });
        else totals.set(id, { ...mergeDaily(total, row), day: compare(row.day, total.day) > 0 ? row.day : total.day });
      }
      return copyAll([...totals.values()].sort(by((r) => r.envId, (r) => r.flagKey)));
    },
  };
}
