import type { EntityFlagStatsRecord, FlagDailyStatsRecord, StatsRepository } from '@flagmount/core';
import { sql, type RawBuilder } from 'kysely';
import { codecs } from '../codecs.js';
import { chunks, rowsPerStatement, type RepoContext } from './context.js';

function earliest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return b < a ? b : a;
}

function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return b > a ? b : a;
}

/**
 * Folds deltas that share a key into one, sorted by key. Postgres refuses an `ON CONFLICT DO UPDATE` that touches
 * the same row twice, and a fixed key order keeps two concurrent batches from deadlocking on each other's rows.
 */
function fold<T>(deltas: readonly T[], key: (d: T) => string[], merge: (a: T, b: T) => T): T[] {
  const byKey = new Map<string, { key: string[]; value: T }>();
  for (const delta of deltas) {
    const k = key(delta);
    const id = JSON.stringify(k);
    const existing = byKey.get(id);
    byKey.set(id, { key: k, value: existing ? merge(existing.value, delta) : delta });
  }
  return [...byKey.values()]
    .sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) {
        const x = a.key[i]!;
        const y = b.key[i]!;
        if (x !== y) return x < y ? -1 : 1;
      }
      return 0;
    })
    .map((entry) => entry.value);
}

// `ON CONFLICT DO UPDATE` expressions: the stored row is `<table>.<column>`, the incoming one `excluded.<column>`.
const add = (table: string, column: string): RawBuilder<number> =>
  sql<number>`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`;

// CASE rather than min()/least(): SQLite's min() yields NULL when either side is NULL, Postgres' least() ignores it.
const pickTime = (table: string, column: string, op: '<' | '>'): RawBuilder<string | null> => {
  const stored = sql.ref(`${table}.${column}`);
  const incoming = sql.ref(`excluded.${column}`);
  return sql<string | null>`case when ${incoming} is null then ${stored} when ${stored} is null or ${incoming} ${sql.raw(op)} ${stored} then ${incoming} else ${stored} end`;
};

export function statsRepository(ctx: RepoContext): StatsRepository {
  return {
    async mergeEntityFlagStats(deltas) {
      const folded = fold<EntityFlagStatsRecord>(
        deltas,
        (d) => [d.envId, d.entityType, d.entityId, d.flagKey],
        (a, b) => ({
          ...a,
          firstExposureAt: earliest(a.firstExposureAt, b.firstExposureAt),
          lastExposureAt: latest(a.lastExposureAt, b.lastExposureAt),
          exposureCount: a.exposureCount + b.exposureCount,
          lastCheckAt: latest(a.lastCheckAt, b.lastCheckAt),
          checkCount: a.checkCount + b.checkCount,
          firstTrackAt: earliest(a.firstTrackAt, b.firstTrackAt),
          lastTrackAt: latest(a.lastTrackAt, b.lastTrackAt),
          trackCount: a.trackCount + b.trackCount,
        }),
      );
      if (folded.length === 0) return;
      const t = 'entity_flag_stats';
      await ctx.atomic(async (db) => {
        for (const part of chunks(folded, rowsPerStatement(12))) {
          await db
            .insertInto(t)
            .values(part.map((row) => codecs.entityFlagStats.encode(row, ctx.enc)))
            .onConflict((oc) =>
              oc.columns(['env_id', 'entity_type', 'entity_id', 'flag_key']).doUpdateSet({
                first_exposure_at: pickTime(t, 'first_exposure_at', '<'),
                last_exposure_at: pickTime(t, 'last_exposure_at', '>'),
                exposure_count: add(t, 'exposure_count'),
                last_check_at: pickTime(t, 'last_check_at', '>'),
                check_count: add(t, 'check_count'),
                first_track_at: pickTime(t, 'first_track_at', '<'),
                last_track_at: pickTime(t, 'last_track_at', '>'),
                track_count: add(t, 'track_count'),
              }),
            )
            .execute();
        }
      });
    },
    async listEntityFlagStats(envId, entityType, entityId) {
      const rows = await ctx
        .db()
        .selectFrom('entity_flag_stats')
        .selectAll()
        .where('env_id', '=', envId)
        .where('entity_type', '=', entityType)
        .where('entity_id', '=', entityId)
        .orderBy('flag_key')
        .execute();
      return rows.map((row) => codecs.entityFlagStats.decode(row));
    },
    async mergeFlagDailyStats(deltas) {
      const folded = fold<FlagDailyStatsRecord>(
        deltas,
        (d) => [d.envId, d.flagKey, d.day],
        (a, b) => ({
          ...a,
          checkCount: a.checkCount + b.checkCount,
          exposureCount: a.exposureCount + b.exposureCount,
          trackCount: a.trackCount + b.trackCount,
          lastCheckAt: latest(a.lastCheckAt, b.lastCheckAt),
          lastTrackAt: latest(a.lastTrackAt, b.lastTrackAt),
        }),
      );
      if (folded.length === 0) return;
      const t = 'flag_daily_stats';
      await ctx.atomic(async (db) => {
        for (const part of chunks(folded, rowsPerStatement(8))) {
          await db
            .insertInto(t)
            .values(part.map((row) => codecs.flagDailyStats.encode(row, ctx.enc)))
            .onConflict((oc) =>
              oc.columns(['env_id', 'flag_key', 'day']).doUpdateSet({
                check_count: add(t, 'check_count'),
                exposure_count: add(t, 'exposure_count'),
                track_count: add(t, 'track_count'),
                last_check_at: pickTime(t, 'last_check_at', '>'),
                last_track_at: pickTime(t, 'last_track_at', '>'),
              }),
            )
            .execute();
        }
      });
    },
    async listFlagDailyStats(envIds, sinceDay) {
      if (envIds.length === 0) return [];
      const rows = await ctx
        .db()
        .selectFrom('flag_daily_stats')
        .selectAll()
        .where('env_id', 'in', envIds)
        .where('day', '>=', sinceDay)
        .orderBy('env_id')
        .orderBy('flag_key')
        .orderBy('day')
        .execute();
      return rows.map((row) => codecs.flagDailyStats.decode(row));
    },
    async listFlagTotals(envIds) {
      if (envIds.length === 0) return [];
      const rows = await ctx
        .db()
        .selectFrom('flag_daily_stats')
        .select((eb) => [
          'env_id',
          'flag_key',
          // The most recent day with activity: the row needs a day, and this is the one its last* times fall on.
          eb.fn.max('day').as('day'),
          eb.fn.sum('check_count').as('check_count'),
          eb.fn.sum('exposure_count').as('exposure_count'),
          eb.fn.sum('track_count').as('track_count'),
          eb.fn.max('last_check_at').as('last_check_at'),
          eb.fn.max('last_track_at').as('last_track_at'),
        ])
        .where('env_id', 'in', envIds)
        .groupBy(['env_id', 'flag_key'])
        .orderBy('env_id')
        .orderBy('flag_key')
        .execute();
      return rows.map((row) => codecs.flagDailyStats.decode(row));
    },
  };
}
