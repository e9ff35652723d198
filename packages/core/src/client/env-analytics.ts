import type { EntityUpsert, IngestBatch } from '../ingestion/ingest-batch.js';
import { newId } from '../domain/ids.js';
import type { CheckEventRecord, EntityFlagStatsRecord, FlagDailyStatsRecord, MembershipRecord } from '../storage/records.js';
import { attributeHash } from './attribute-hash.js';
import { BoundedMap } from './bounded-map.js';

/** Same window as Reflag's node SDK: an identical check or context update is counted at most once a minute. */
export const DEDUPE_WINDOW_MS = 60_000;
/** Users (and company-only contexts) remembered for dedupe, per generation: at most twice this many are held. */
const SEEN_PER_GENERATION = 100_000;
/** Flags remembered per user; beyond, the oldest is forgotten (and counted again when next checked). */
const FLAGS_PER_USER = 64;
const DAY_MS = 86_400_000;

/** One flag's last counted check for a user: a check that matches it within the window is not counted again. */
interface SeenCheck {
  flagKey: string;
  config: boolean;
  version: number;
  result: unknown;
  companyId: string | null;
  at: number;
  next: SeenCheck | null;
}

/** What the client remembers of one user (or one company-only / anonymous context). */
export interface Seen {
  /** The attributes object last synced, its hash and when: a new object with the same hash is not synced again. */
  object: object | undefined;
  hash: number;
  syncedAt: number;
  /** The company this user was last associated with. */
  company: string | null;
  checks: SeenCheck | null;
  length: number;
}

interface EntityAggregate {
  type: 'user' | 'company';
  id: string;
  flagKey: string;
  checks: number;
  exposures: number;
  firstExposure: number;
  lastExposure: number;
  lastCheck: number;
}

interface DailyAggregate {
  flagKey: string;
  day: number;
  checks: number;
  lastCheck: number;
}

interface PendingEntity {
  attributes: Record<string, unknown>;
  at: number;
}

/** What one check reports, for the raw sample kept in the store's bounded ring. */
export interface CheckSample {
  context: Record<string, unknown>;
  /** As the event reports it: the result, or the config's `{ key, payload }`. */
  result: unknown;
  ruleResults: readonly boolean[];
  missing: readonly string[];
}

const newSeen = (): Seen => ({ object: undefined, hash: 0, syncedAt: -Infinity, company: null, checks: null, length: 0 });

function entryOf(map: BoundedMap<string, Seen>, key: string): Seen {
  let seen = map.get(key);
  if (seen === undefined) {
    seen = newSeen();
    map.set(key, seen);
  }
  return seen;
}

const iso = (ms: number) => new Date(ms).toISOString();
const orNull = (ms: number) => (ms < 0 ? null : iso(ms));

/** The attributes to store: every member but `id` (a shallow copy: the host may change its object later). */
function attributesOf(entity: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in entity) if (key !== 'id' && Object.prototype.hasOwnProperty.call(entity, key)) out[key] = entity[key];
  return out;
}

/**
 * The in-process client's analytics of one environment: checks counted per (flag, targeting version, result, user,
 * company) at most once a minute, as the node SDK would send them, aggregated into exactly the rows the API serves
 * (entity flag stats, daily flag stats), plus the context sync (users, companies, memberships). Every structure is
 * bounded: dedupe memory by generations, pending rows by the caller's budget (`room`).
 */
export class EnvAnalytics {
  private readonly users = new BoundedMap<string, Seen>(SEEN_PER_GENERATION);
  private readonly companies = new BoundedMap<string, Seen>(SEEN_PER_GENERATION);
  private readonly anonymous: Seen = newSeen();
  private entityStats = new Map<string, EntityAggregate>();
  private daily = new Map<string, DailyAggregate>();
  private pendingUsers = new Map<string, PendingEntity>();
  private pendingCompanies = new Map<string, PendingEntity>();
  private memberships: Array<{ companyId: string; userId: string; at: number }> = [];
  private samples: CheckEventRecord[] = [];

  constructor(readonly envId: string) {}

  /** What is remembered of a user; its checks are remembered there. */
  user(id: string): Seen {
    return entryOf(this.users, id);
  }

  /** What is remembered of a company; the checks of a context with a company and no user are remembered there. */
  company(id: string): Seen {
    return entryOf(this.companies, id);
  }

  /** The checks of contexts with neither a user nor a company. */
  get anonymousEntry(): Seen {
    return this.anonymous;
  }

  /**
   * Whether this check was already counted within the window; `false` means it is new, and `remember` must be
   * called if it is counted.
   */
  isCounted(seen: Seen, flagKey: string, config: boolean, version: number, result: unknown, companyId: string | null, now: number): boolean {
    for (let c = seen.checks; c !== null; c = c.next) {
      if (c.flagKey === flagKey && c.config === config) {
        return c.version === version && c.result === result && c.companyId === companyId && now - c.at < DEDUPE_WINDOW_MS;
      }
    }
    return false;
  }

  /** Counts a check into the pending aggregates (and remembers it for dedupe). Returns the rows it added. */
  count(
    seen: Seen,
    flagKey: string,
    config: boolean,
    version: number,
    result: unknown,
    userId: string | null,
    companyId: string | null,
    now: number,
    sample: CheckSample | undefined,
  ): number {
    this.remember(seen, flagKey, config, version, result, companyId, now);
    const exposure = result === true;
    let added = 0;
    if (userId !== null) added += this.addEntity('user', userId, flagKey, exposure, now);
    if (companyId !== null) added += this.addEntity('company', companyId, flagKey, exposure, now);
    const day = Math.floor(now / DAY_MS);
    const dailyKey = `${flagKey}\u0000${day}`;
    const daily = this.daily.get(dailyKey);
    if (daily) {
      daily.checks++;
      if (now > daily.lastCheck) daily.lastCheck = now;
    } else {
      this.daily.set(dailyKey, { flagKey, day, checks: 1, lastCheck: now });
      added++;
    }
    if (sample) {
      this.samples.push({
        id: newId('ev'),
        envId: this.envId,
        action: config ? 'check-config' : 'check',
        flagKey,
        targetingVersion: version,
        userId,
        companyId,
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

  get sampleCount(): number {
    return this.samples.length;
  }

  /** Whether the entity's attributes need syncing: a new object whose hash differs, or a minute since the last sync. */
  needsSync(seen: Seen, entity: Record<string, unknown>, now: number): boolean {
    if (now - seen.syncedAt >= DEDUPE_WINDOW_MS) return true;
    if (seen.object === entity) return false;
    const hash = attributeHash(entity);
    if (hash === seen.hash) {
      seen.object = entity;
      return false;
    }
    return true;
  }

  /** Queues the entity's attributes; returns the rows it added (0 when it replaced a pending one). */
  sync(seen: Seen, type: 'user' | 'company', id: string, entity: Record<string, unknown>, now: number): number {
    seen.object = entity;
    seen.hash = attributeHash(entity);
    seen.syncedAt = now;
    const pending = type === 'user' ? this.pendingUsers : this.pendingCompanies;
    const attributes = attributesOf(entity);
    const before = pending.get(id);
    pending.set(id, { attributes: before ? { ...before.attributes, ...attributes } : attributes, at: now });
    return before ? 0 : 1;
  }

  associate(seen: Seen, companyId: string, userId: string, now: number): number {
    seen.company = companyId;
    this.memberships.push({ companyId, userId, at: now });
    return 1;
  }

  /** Everything pending, as ingestion batches of at most `size` items, and resets. */
  drain(size: number): IngestBatch[] {
    const envId = this.envId;
    const entities: EntityUpsert[] = [];
    for (const [id, e] of this.pendingUsers) entities.push({ envId, type: 'user', id, attributes: e.attributes, at: iso(e.at) });
    for (const [id, e] of this.pendingCompanies) entities.push({ envId, type: 'company', id, attributes: e.attributes, at: iso(e.at) });
    const memberships: MembershipRecord[] = [];
    for (const m of this.memberships) {
      const at = iso(m.at);
      memberships.push({ envId, companyId: m.companyId, userId: m.userId, createdAt: at });
      // The user of a membership exists, as after `POST /company` with a userId.
      entities.push({ envId, type: 'user', id: m.userId, attributes: {}, at });
    }
    const entityStats: EntityFlagStatsRecord[] = [];
    for (const a of this.entityStats.values()) {
      entityStats.push({
        envId,
        entityType: a.type,
        entityId: a.id,
        flagKey: a.flagKey,
        firstExposureAt: orNull(a.firstExposure),
        lastExposureAt: orNull(a.lastExposure),
        exposureCount: a.exposures,
        lastCheckAt: iso(a.lastCheck),
        checkCount: a.checks,
        firstTrackAt: null,
        lastTrackAt: null,
        trackCount: 0,
      });
    }
    const dailyStats: FlagDailyStatsRecord[] = [];
    for (const d of this.daily.values()) {
      dailyStats.push({
        envId,
        flagKey: d.flagKey,
        day: iso(d.day * DAY_MS).slice(0, 10),
        checkCount: d.checks,
        trackCount: 0,
        lastCheckAt: iso(d.lastCheck),
        lastTrackAt: null,
      });
    }
    const checks = this.samples;
    this.pendingUsers = new Map();
    this.pendingCompanies = new Map();
    this.memberships = [];
    this.entityStats = new Map();
    this.daily = new Map();
    this.samples = [];
    return batches(size, { entities, memberships, entityStats, dailyStats, checks });
  }

  private remember(
    seen: Seen,
    flagKey: string,
    config: boolean,
    version: number,
    result: unknown,
    companyId: string | null,
    now: number,
  ): void {
    for (let c = seen.checks; c !== null; c = c.next) {
      if (c.flagKey === flagKey && c.config === config) {
        c.version = version;
        c.result = result;
        c.companyId = companyId;
        c.at = now;
        return;
      }
    }
    seen.checks = { flagKey, config, version, result, companyId, at: now, next: seen.checks };
    if (++seen.length > FLAGS_PER_USER) {
      // Forget the oldest: cut the list after its FLAGS_PER_USER-th entry.
      let c = seen.checks;
      for (let i = 1; i < FLAGS_PER_USER && c.next !== null; i++) c = c.next;
      c.next = null;
      seen.length = FLAGS_PER_USER;
    }
  }

  private addEntity(type: 'user' | 'company', id: string, flagKey: string, exposure: boolean, now: number): number {
    const key = `${type}\u0000${id}\u0000${flagKey}`;
    let a = this.entityStats.get(key);
    let added = 0;
    if (a === undefined) {
      a = { type, id, flagKey, checks: 0, exposures: 0, firstExposure: -1, lastExposure: -1, lastCheck: now };
      this.entityStats.set(key, a);
      added = 1;
    }
    a.checks++;
    if (now > a.lastCheck) a.lastCheck = now;
    if (exposure) {
      a.exposures++;
      if (a.firstExposure < 0 || now < a.firstExposure) a.firstExposure = now;
      if (now > a.lastExposure) a.lastExposure = now;
    }
    return added;
  }
}

/** Splits rows into batches of at most `size` items, entities and memberships first (stats may follow them). */
function batches(
  size: number,
  rows: Required<Pick<IngestBatch, 'entities' | 'memberships' | 'entityStats' | 'dailyStats' | 'checks'>>,
): IngestBatch[] {
  const out: IngestBatch[] = [];
  let current: IngestBatch = {};
  let n = 0;
  for (const name of ['entities', 'memberships', 'entityStats', 'dailyStats', 'checks'] as const) {
    const list = rows[name] as unknown[];
    for (let i = 0; i < list.length; ) {
      const take = Math.min(size - n, list.length - i);
      const part = list.slice(i, i + take);
      ((current as Record<string, unknown[]>)[name] ??= []).push(...part);
      n += take;
      i += take;
      if (n >= size) {
        out.push(current);
        current = {};
        n = 0;
      }
    }
  }
  if (n > 0) out.push(current);
  return out;
}
