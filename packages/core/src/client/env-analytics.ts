import type { EntityUpsert, IngestBatch } from '../ingestion/ingest-batch.js';
import { newId } from '../domain/ids.js';
import type { CheckEventRecord, EntityFlagStatsRecord, FlagDailyStatsRecord, MembershipRecord } from '../storage/records.js';
import { attributeHash, stringHash } from './attribute-hash.js';
import { batches } from './analytics-rows.js';
import { CheckCache, checkHash } from './check-cache.js';
import { ANONYMOUS, ATTRIBUTES_HASH, COMPANY, EntityCache, MEMBER_OF, SYNC, SYNCED_AT, USER } from './entity-cache.js';
import { COMPANY_OF_CHECK, CONFIG, COUNTED_AT, FLAG, keyOf, RESULT, TALLY, VERSION } from './slot-cache.js';
import { PendingMemberships, PendingSyncs, PendingTallies } from './pending-rows.js';

/** Same window as Reflag's node SDK: an identical check or context update is counted at most once a minute. */
export const DEDUPE_WINDOW_MS = 60_000;
const DAY_MS = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** What one check reports, for the raw sample kept in the store's bounded ring. */
export interface CheckSample {
  context: Record<string, unknown>;
  /** As the event reports it: the result, or the config's `{ key, payload }`. */
  result: unknown;
  ruleResults: readonly boolean[];
  missing: readonly string[];
}

/** One check's inputs, filled in place by the buffer for every call: one object reused, nothing allocated. */
export class CheckCall {
  userId: string | null = null;
  userHash = 0;
  /** The user's slot in the entity cache (-1 none). */
  userSlot = -1;
  companyId: string | null = null;
  companyHash = 0;
  companySlot = -1;
  flagKey = '';
  config = false;
  version = 0;
  result: unknown = undefined;
  /** Where the owner's check of this flag is, set by `findOwnerCheck` (see `Location`). */
  owner = NONE;
}

/**
 * Where a check of an entity and flag is kept: an entity cache slot (>= 0), whose inline check it is; a check cache
 * slot `s` as `-2 - s`; or NONE. A number, so that a lookup returns it without allocating.
 */
type Location = number;
const NONE: Location = -1;

interface Daily {
  flagKey: string;
  day: number;
  checks: number;
  exposures: number;
  lastCheck: number;
}

/**
 * The in-process client's analytics of one environment: checks counted per (flag, targeting version, result, user,
 * company) at most once a minute, as the node SDK would send them, aggregated into exactly the rows the API serves
 * (entity flag stats, daily flag stats), plus the context sync (users, companies, memberships). Everything lives in
 * flat arrays (the caches of what was met, the rows pending for the flush), so a new user allocates nothing;
 * the caches are bounded by their size, the pending rows by the buffer's budgets.
 */
export class EnvAnalytics {
  private entities = new EntityCache();
  private checks = new CheckCache();
  private readonly tallies = new PendingTallies();
  private readonly syncs = new PendingSyncs();
  private readonly memberships = new PendingMemberships();
  /** Advanced when the entity cache grows, which moves its slots. */
  entityEpoch = 0;
  private daily = new Map<string, Daily>();
  private lastDaily: Daily | undefined;
  private samples: CheckEventRecord[] = [];
  private lastFlagKey = '';
  private lastFlagHash = stringHash('');

  constructor(readonly envId: string) {}

  get sampleCount(): number {
    return this.samples.length;
  }

  /** The entity's slot in the cache, remembering it from now on. */
  entity(kind: number, id: string, hash: number): number {
    const key = keyOf(hash, kind);
    let cache = this.entities;
    const slot = cache.find(key, id, null);
    if (slot >= 0) return slot;
    if (cache.crowded(key)) {
      this.entities = cache = cache.grown();
      this.entityEpoch++;
    }
    return cache.claim(key, id, null);
  }

  /** The entity's slot, or -1, without remembering a new one (a full buffer records nothing). */
  peekEntity(kind: number, id: string, hash: number): number {
    return this.entities.find(keyOf(hash, kind), id, null);
  }

  /** Whether the entity's attributes need syncing: a minute since the last sync, or attributes that hash apart. */
  needsSync(slot: number, entity: Record<string, unknown>, now: number): boolean {
    const meta = this.entities.meta;
    const m = slot * 8;
    return now - meta[m + SYNCED_AT]! >= DEDUPE_WINDOW_MS || attributeHash(entity) !== meta[m + ATTRIBUTES_HASH];
  }

  /** Queues the entity's attributes (copied at the flush); returns the rows it added. */
  sync(kind: number, slot: number, entity: Record<string, unknown>, now: number): number {
    const cache = this.entities;
    const m = slot * 8;
    cache.meta[m + ATTRIBUTES_HASH] = attributeHash(entity);
    cache.meta[m + SYNCED_AT] = now;
    const serial = cache.meta[m + SYNC]!;
    if (this.syncs.holds(serial)) {
      this.syncs.merge(serial, entity, now);
      return 0;
    }
    cache.meta[m + SYNC] = this.syncs.add(kind, cache.ids[slot]!, entity, now);
    return 1;
  }

  /** The company the user of `slot` was last associated with. */
  companyOf(slot: number): unknown {
    return this.entities.refs[slot * 4 + MEMBER_OF];
  }

  associate(userSlot: number, companyId: string, now: number): number {
    const cache = this.entities;
    cache.refs[userSlot * 4 + MEMBER_OF] = companyId;
    this.memberships.add(companyId, cache.ids[userSlot]!, now);
    return 1;
  }

  /** Finds where the call's owner (its user, else its company, else the anonymous entry) keeps its check of the flag. */
  findOwnerCheck(call: CheckCall): void {
    if (call.flagKey !== this.lastFlagKey) {
      this.lastFlagKey = call.flagKey;
      this.lastFlagHash = stringHash(call.flagKey);
    }
    if (call.userId !== null) {
      call.owner = call.userSlot < 0 ? NONE : this.locate(call.userSlot, USER, call.userId, call.userHash, call, false);
    } else if (call.companyId !== null) {
      call.owner = call.companySlot < 0 ? NONE : this.locate(call.companySlot, COMPANY, call.companyId, call.companyHash, call, false);
    } else {
      const slot = this.checks.find(keyOf(checkHash(0, this.lastFlagHash), ANONYMOUS * 2 + (call.config ? 1 : 0)), '', call.flagKey);
      call.owner = slot < 0 ? NONE : -2 - slot;
    }
  }

  /** Whether the owner counted this check (same version, result and company) within the window. */
  isCounted(call: CheckCall, now: number): boolean {
    const at = call.owner;
    if (at === NONE) return false;
    const cache = at >= 0 ? this.entities : this.checks;
    const slot = at >= 0 ? at : -2 - at;
    const m = slot * cache.metaStride;
    const r = slot * cache.refStride;
    return (
      cache.meta[m + VERSION] === call.version &&
      cache.refs[r + RESULT] === call.result &&
      cache.refs[r + COMPANY_OF_CHECK] === call.companyId &&
      now - cache.meta[m + COUNTED_AT]! < DEDUPE_WINDOW_MS
    );
  }

  /**
   * Counts a check (after `findOwnerCheck`): remembered by its owner, tallied for the user and the company. Returns
   * the rows it added. The entities' slots are those the context sync found or claimed (a full buffer's sync only
   * looked them up: those not found are remembered now).
   */
  count(call: CheckCall, now: number, sample: CheckSample | undefined): number {
    const exposure = call.result === true;
    if ((call.userId !== null && call.userSlot < 0) || (call.companyId !== null && call.companySlot < 0)) this.remember(call);
    let at = call.owner;
    if (at === NONE) {
      if (call.userId !== null) at = this.locate(call.userSlot, USER, call.userId, call.userHash, call, true);
      else if (call.companyId !== null) at = this.locate(call.companySlot, COMPANY, call.companyId, call.companyHash, call, true);
      else at = -2 - this.claimCheck(keyOf(checkHash(0, this.lastFlagHash), ANONYMOUS * 2 + (call.config ? 1 : 0)), '', call.flagKey);
    }
    const cache = at >= 0 ? this.entities : this.checks;
    const slot = at >= 0 ? at : -2 - at;
    const m = slot * cache.metaStride;
    const r = slot * cache.refStride;
    cache.meta[m + VERSION] = call.version;
    cache.meta[m + COUNTED_AT] = now;
    cache.refs[r + RESULT] = call.result;
    cache.refs[r + COMPANY_OF_CHECK] = call.companyId;
    let added = 0;
    // The owner's location is used before the company's is claimed: a claim may grow the check cache and move it.
    if (call.userId !== null) added += this.tally(at, USER, call.userId, call.flagKey, exposure, now);
    if (call.companyId !== null) {
      if (call.userId !== null) at = this.locate(call.companySlot, COMPANY, call.companyId, call.companyHash, call, true);
      added += this.tally(at, COMPANY, call.companyId, call.flagKey, exposure, now);
    }
    added += this.countDaily(call.flagKey, exposure, now);
    if (sample) {
      this.samples.push({
        id: newId('ev'),
        envId: this.envId,
        action: call.config ? 'check-config' : 'check',
        flagKey: call.flagKey,
        targetingVersion: call.version,
        userId: call.userId,
        companyId: call.companyId,
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

  /** Everything pending, as ingestion batches of at most `size` items, and resets. */
  drain(size: number): IngestBatch[] {
    const envId = this.envId;
    const entities: EntityUpsert[] = [];
    this.syncs.drain(envId, entities);
    const memberships: MembershipRecord[] = [];
    this.memberships.drain(envId, memberships, entities);
    const entityStats: EntityFlagStatsRecord[] = [];
    this.tallies.drain(envId, entityStats);
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
    this.daily = new Map();
    this.lastDaily = undefined;
    this.samples = [];
    return batches(size, { entities, memberships, entityStats, dailyStats, checks });
  }

  /**
   * Remembers the call's company and user, setting their slots (-1 for an absent one) and forgetting where the
   * owner's check was: the user is remembered last, and if that grew the cache the company's slot is found again.
   */
  remember(call: CheckCall): void {
    const epoch = this.entityEpoch;
    call.companySlot = call.companyId !== null ? this.entity(COMPANY, call.companyId, call.companyHash) : -1;
    call.userSlot = call.userId !== null ? this.entity(USER, call.userId, call.userHash) : -1;
    if (call.companyId !== null && this.entityEpoch !== epoch) call.companySlot = this.entity(COMPANY, call.companyId, call.companyHash);
    call.owner = NONE;
  }

  /**
   * Where an entity keeps its check of the call's flag: inline in its slot when that is its first flag (claimed there
   * when free and `claim`), else in the check cache (claimed when `claim`).
   */
  private locate(slot: number, kind: number, id: string, hash: number, call: CheckCall, claim: boolean): Location {
    const entities = this.entities;
    const config = call.config ? 1 : 0;
    const inline = entities.refs[slot * 4 + FLAG];
    if (inline === call.flagKey && entities.meta[slot * 8 + CONFIG] === config) return slot;
    if (inline === null && claim) {
      entities.refs[slot * 4 + FLAG] = call.flagKey;
      entities.meta[slot * 8 + CONFIG] = config;
      return slot;
    }
    const key = keyOf(checkHash(hash, this.lastFlagHash), kind * 2 + config);
    const found = this.checks.find(key, id, call.flagKey);
    if (found >= 0) return -2 - found;
    return claim ? -2 - this.claimCheck(key, id, call.flagKey) : NONE;
  }

  private claimCheck(key: number, id: string, flagKey: string): number {
    let checks = this.checks;
    if (checks.crowded(key)) this.checks = checks = checks.grown();
    return checks.claim(key, id, flagKey);
  }

  /** Adds the check to the pending counts of the entity and flag kept `at`; returns 1 when that is a new row. */
  private tally(at: Location, kind: number, id: string, flagKey: string, exposure: boolean, now: number): number {
    const cache = at >= 0 ? this.entities : this.checks;
    const m = (at >= 0 ? at : -2 - at) * cache.metaStride + TALLY;
    let serial = cache.meta[m]!;
    let added = 0;
    if (!this.tallies.holds(serial)) {
      cache.meta[m] = serial = this.tallies.add(kind, id, flagKey);
      added = 1;
    }
    this.tallies.count(serial, exposure, now);
    return added;
  }

  private countDaily(flagKey: string, exposure: boolean, now: number): number {
    const day = Math.floor(now / DAY_MS);
    let daily = this.lastDaily;
    let added = 0;
    if (daily === undefined || daily.flagKey !== flagKey || daily.day !== day) {
      const key = `${flagKey}\u0000${day}`;
      daily = this.daily.get(key);
      if (daily === undefined) {
        this.daily.set(key, (daily = { flagKey, day, checks: 0, exposures: 0, lastCheck: now }));
        added = 1;
      }
      this.lastDaily = daily;
    }
    daily.checks++;
    if (exposure) daily.exposures++;
    if (now > daily.lastCheck) daily.lastCheck = now;
    return added;
  }
}
