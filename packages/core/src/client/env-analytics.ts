import type { EntityUpsert, IngestBatch } from '../ingestion/ingest-batch.js';
import { newId } from '../domain/ids.js';
import type { CheckEventRecord, EntityFlagStatsRecord, FlagDailyStatsRecord, MembershipRecord } from '../storage/records.js';
import { attributeHash } from './attribute-hash.js';
import { BoundedMap } from './bounded-map.js';
import { attributesOf, batches } from './analytics-rows.js';
import { Seen, Tally, type CheckSample } from './seen.js';

/** Same window as Reflag's node SDK: an identical check or context update is counted at most once a minute. */
export const DEDUPE_WINDOW_MS = 60_000;
/** Users (and companies) remembered for dedupe, per generation: at most twice this many are held. */
const SEEN_PER_GENERATION = 50_000;
/** Flags remembered per user; beyond, the oldest is forgotten (and counted again when next checked). */
const FLAGS_PER_ENTITY = 64;
const DAY_MS = 86_400_000;

const DEDUPE_WINDOW_S = DEDUPE_WINDOW_MS / 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The in-process client's analytics of one environment: checks counted per (flag, targeting version, result, user,
 * company) at most once a minute, as the node SDK would send them, aggregated into exactly the rows the API serves
 * (entity flag stats, daily flag stats), plus the context sync (users, companies, memberships). One object per
 * entity holds both its dedupe memory and its pending counts, so a new user costs one map entry. Every structure is
 * bounded: dedupe memory by generations, pending rows by the caller's budgets.
 */
export class EnvAnalytics {
  private readonly users = new BoundedMap<string, Seen>(SEEN_PER_GENERATION);
  private readonly companies = new BoundedMap<string, Seen>(SEEN_PER_GENERATION);
  private readonly anonymous: Seen = new Seen(null, '');
  /** Entities with something to flush (an entity evicted from the maps is still flushed from here). */
  private pending: Seen[] = [];
  private memberships: Array<{ companyId: string; userId: string; at: number }> = [];
  private daily = new Map<string, { flagKey: string; day: number; checks: number; exposures: number; lastCheck: number }>();
  private lastDaily: { flagKey: string; day: number; checks: number; exposures: number; lastCheck: number } | undefined;
  private samples: CheckEventRecord[] = [];
  /** Dedupe times are seconds since this; pending times milliseconds since `base` (the last flush). */
  private readonly epoch: number;
  private base: number;

  constructor(
    readonly envId: string,
    now: number,
  ) {
    this.epoch = now;
    this.base = now;
  }

  /** `now` (ms) as dedupe seconds. */
  seconds(now: number): number {
    return now > this.epoch ? Math.floor((now - this.epoch) / 1000) : 0;
  }

  user(id: string): Seen {
    let seen = this.users.get(id);
    if (seen === undefined) this.users.add(id, (seen = new Seen('user', id)));
    return seen;
  }

  /** What is remembered of a user or company, without remembering a new one (a full buffer records nothing). */
  peek(type: 'user' | 'company', id: string): Seen | undefined {
    return (type === 'user' ? this.users : this.companies).get(id);
  }

  company(id: string): Seen {
    let seen = this.companies.get(id);
    if (seen === undefined) this.companies.add(id, (seen = new Seen('company', id)));
    return seen;
  }

  get anonymousEntry(): Seen {
    return this.anonymous;
  }

  get sampleCount(): number {
    return this.samples.length;
  }

  /** The tally of `owner` for this check if it was counted within the window (then it is not counted again). */
  isCounted(owner: Seen, flagKey: string, config: boolean, version: number, result: unknown, companyId: string | null, second: number): boolean {
    for (let t = owner.tallies; t !== null; t = t.next) {
      if (t.flagKey === flagKey && t.config === config) {
        return t.version === version && t.result === result && t.companyId === companyId && t.at >= 0 && second - t.at < DEDUPE_WINDOW_S;
      }
    }
    return false;
  }

  /** Counts a check: remembered by `owner`, tallied for the user and the company. Returns the rows it added. */
  count(
    owner: Seen,
    user: Seen | null,
    company: Seen | null,
    flagKey: string,
    config: boolean,
    version: number,
    result: unknown,
    now: number,
    sample: CheckSample | undefined,
  ): number {
    const mine = this.tally(owner, flagKey, config);
    mine.version = version;
    mine.result = result;
    mine.companyId = company === null ? null : company.id;
    mine.at = this.seconds(now);
    const exposure = result === true;
    const since = now > this.base ? now - this.base : 0;
    let added = 0;
    if (user !== null) added += this.add(user === owner ? mine : this.tally(user, flagKey, config), user, exposure, since);
    if (company !== null) added += this.add(company === owner ? mine : this.tally(company, flagKey, config), company, exposure, since);
    const day = Math.floor(now / DAY_MS);
    let daily = this.lastDaily;
    if (daily === undefined || daily.flagKey !== flagKey || daily.day !== day) {
      const key = `${flagKey}\u0000${day}`;
      daily = this.daily.get(key);
      if (daily === undefined) {
        this.daily.set(key, (daily = { flagKey, day, checks: 0, exposures: 0, lastCheck: now }));
        added++;
      }
      this.lastDaily = daily;
    }
    daily.checks++;
    if (exposure) daily.exposures++;
    if (now > daily.lastCheck) daily.lastCheck = now;
    if (sample) {
      this.samples.push({
        id: newId('ev'),
        envId: this.envId,
        action: config ? 'check-config' : 'check',
        flagKey,
        targetingVersion: version,
        userId: user === null ? null : user.id,
        companyId: company === null ? null : company.id,
        evalContext: sample.context,
        evalResult: sample.result,
        evalRuleResults: [...sample.ruleResults],
        evalMissingFields: [...sample.missing],
        timestamp: iso(now),
      });
      added++;
    }
    return added;
  }

  /** Whether the entity's attributes need syncing: a new object whose hash differs, or a minute since the last sync. */
  needsSync(seen: Seen, entity: Record<string, unknown>, second: number): boolean {
    if (seen.syncedAt < 0 || second - seen.syncedAt >= DEDUPE_WINDOW_S) return true;
    if (seen.object === entity) return false;
    if (attributeHash(entity) === seen.hash) {
      seen.object = entity;
      return false;
    }
    return true;
  }

  /** Queues the entity's attributes (copied at the flush); returns the rows it added. */
  sync(seen: Seen, entity: Record<string, unknown>, now: number): number {
    seen.object = entity;
    seen.hash = attributeHash(entity);
    seen.syncedAt = this.seconds(now);
    const added = seen.sync === undefined ? 1 : 0;
    // Two objects within one flush: the attributes of both, the later winning, as two upserts would merge.
    seen.sync = seen.sync === undefined ? entity : { ...seen.sync, ...entity };
    seen.syncAt = now > this.base ? now - this.base : 0;
    this.enlist(seen);
    return added;
  }

  associate(user: Seen, companyId: string, now: number): number {
    user.company = companyId;
    this.memberships.push({ companyId, userId: user.id, at: now });
    return 1;
  }

  /** Everything pending, as ingestion batches of at most `size` items, and resets. */
  drain(size: number, now: number): IngestBatch[] {
    const envId = this.envId;
    const base = this.base;
    this.base = now;
    const entities: EntityUpsert[] = [];
    const entityStats: EntityFlagStatsRecord[] = [];
    for (const seen of this.pending) {
      seen.pending = false;
      if (seen.type === null) continue;
      if (seen.sync !== undefined) {
        // Attributes JSON cannot hold cannot be stored: that entity is not synced (its checks still count).
        const attributes = attributesOf(seen.sync);
        if (attributes !== undefined) entities.push({ envId, type: seen.type, id: seen.id, attributes, at: iso(base + seen.syncAt) });
        seen.sync = undefined;
      }
      this.drainTallies(seen, entityStats, base);
    }
    const memberships: MembershipRecord[] = [];
    for (const m of this.memberships) {
      const at = iso(m.at);
      memberships.push({ envId, companyId: m.companyId, userId: m.userId, createdAt: at });
      // The user of a membership exists, as after `POST /company` with a userId.
      entities.push({ envId, type: 'user', id: m.userId, attributes: {}, at });
    }
    const dailyStats: FlagDailyStatsRecord[] = [];
    for (const d of this.daily.values()) {
      dailyStats.push({
        envId,
        flagKey: d.flagKey,
        day: iso(d.day * DAY_MS).slice(0, 10),
        checkCount: d.checks,
        exposureCount: d.exposures,
        trackCount: 0,
        lastCheckAt: iso(d.lastCheck),
        lastTrackAt: null,
      });
    }
    const checks = this.samples;
    this.pending = [];
    this.memberships = [];
    this.daily = new Map();
    this.lastDaily = undefined;
    this.samples = [];
    return batches(size, { entities, memberships, entityStats, dailyStats, checks });
  }

  /** The entity's pending counts as one stats row per flag (a flag's checks and config checks together). */
  private drainTallies(seen: Seen, out: EntityFlagStatsRecord[], base: number): void {
    const byFlag = new Map<string, EntityFlagStatsRecord>();
    for (let t = seen.tallies; t !== null; t = t.next) {
      if (t.checks === 0) continue;
      const flagKey = t.flagKey!;
      const row = byFlag.get(flagKey);
      const firstExposureAt = t.firstExposure < 0 ? null : iso(base + t.firstExposure);
      const lastExposureAt = t.lastExposure < 0 ? null : iso(base + t.lastExposure);
      const lastCheckAt = iso(base + t.lastCheck);
      if (row === undefined) {
        const fresh: EntityFlagStatsRecord = {
          envId: this.envId,
          entityType: seen.type!,
          entityId: seen.id,
          flagKey,
          firstExposureAt,
          lastExposureAt,
          exposureCount: t.exposures,
          lastCheckAt,
          checkCount: t.checks,
          firstTrackAt: null,
          lastTrackAt: null,
          trackCount: 0,
        };
        byFlag.set(flagKey, fresh);
        out.push(fresh);
      } else {
        row.checkCount += t.checks;
        row.exposureCount += t.exposures;
        if (firstExposureAt !== null && (row.firstExposureAt === null || firstExposureAt < row.firstExposureAt)) row.firstExposureAt = firstExposureAt;
        if (lastExposureAt !== null && (row.lastExposureAt === null || lastExposureAt > row.lastExposureAt)) row.lastExposureAt = lastExposureAt;
        if (lastCheckAt > row.lastCheckAt!) row.lastCheckAt = lastCheckAt;
      }
      t.checks = 0;
      t.exposures = 0;
      t.firstExposure = -1;
      t.lastExposure = -1;
      t.lastCheck = -1;
    }
  }

  private tally(seen: Seen, flagKey: string, config: boolean): Tally {
    for (let t = seen.tallies; t !== null; t = t.next) if (t.flagKey === flagKey && t.config === config) return t;
    let t: Tally;
    if (seen.flagKey === null) {
      // The entity's own slot is free: it becomes this flag's tally (its counts are zero, its dedupe memory reset).
      t = seen;
      t.flagKey = flagKey;
      t.config = config;
      t.version = -1;
      t.result = undefined;
      t.companyId = null;
      t.at = -1;
      t.next = seen.tallies;
    } else {
      t = new Tally(flagKey, config, seen.tallies);
    }
    seen.tallies = t;
    if (++seen.length > FLAGS_PER_ENTITY) this.forgetOldest(seen);
    return t;
  }

  /** Drops the oldest tally of an entity with too many flags, unless it has counts to flush (kept until then). */
  private forgetOldest(seen: Seen): void {
    let before: Tally | null = null;
    let t = seen.tallies;
    while (t !== null && t.next !== null) {
      before = t;
      t = t.next;
    }
    if (before !== null && t !== null && t.checks === 0) {
      before.next = null;
      seen.length--;
      if (t === seen) seen.flagKey = null;
    }
  }

  /** Adds the check (at `since` ms after the flush base) to a tally; returns 1 when it is a new row for the flush. */
  private add(t: Tally, seen: Seen, exposure: boolean, since: number): number {
    const fresh = t.checks === 0;
    t.checks++;
    if (since > t.lastCheck) t.lastCheck = since;
    if (exposure) {
      t.exposures++;
      if (t.firstExposure < 0 || since < t.firstExposure) t.firstExposure = since;
      if (since > t.lastExposure) t.lastExposure = since;
    }
    this.enlist(seen);
    return fresh ? 1 : 0;
  }

  private enlist(seen: Seen): void {
    if (seen.pending) return;
    seen.pending = true;
    this.pending.push(seen);
  }
}
