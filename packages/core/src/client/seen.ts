/**
 * One flag of one entity: its last counted check (the dedupe memory, kept by the context's owner: its user, else
 * its company, else the anonymous entry) and the counts not yet flushed. Times are small integers (seconds since the
 * client's epoch for dedupe, milliseconds since the last flush for counts), so that V8 keeps them unboxed: a
 * timestamp in milliseconds would cost a heap number per field, per entity.
 */
export class Tally {
  /** Null only in an entity's own slot while it is unused (see `Seen`). */
  flagKey: string | null;
  config: boolean;
  version = -1;
  result: unknown = undefined;
  companyId: string | null = null;
  /** Seconds since the epoch of the EnvAnalytics; -1 never. */
  at = -1;
  checks = 0;
  exposures = 0;
  /** Milliseconds since the flush base; -1 none. */
  firstExposure = -1;
  lastExposure = -1;
  lastCheck = -1;

  constructor(
    flagKey: string | null,
    config: boolean,
    public next: Tally | null,
  ) {
    this.flagKey = flagKey;
    this.config = config;
  }
}

/**
 * What the client remembers of one user, company, or of the anonymous context. It is itself the tally of its first
 * flag (the usual case: a user meets one or a few flags), so that a new user costs one object, not two: objects that
 * live for the dedupe window survive young-generation GCs, and copying them there was most of a tracked check.
 */
export class Seen extends Tally {
  /** The attributes object last synced, its hash and when (seconds since the epoch, -1 never). */
  object: Record<string, unknown> | undefined = undefined;
  hash = 0;
  syncedAt = -1;
  /** The company this user was last associated with. */
  company: string | null = null;
  tallies: Tally | null = null;
  length = 0;
  /** Attributes to store at the next flush (copied then), and when they were seen (ms since the flush base). */
  sync: Record<string, unknown> | undefined = undefined;
  syncAt = 0;
  /** In the pending list: something of it waits for the flush. */
  pending = false;

  constructor(
    readonly type: 'user' | 'company' | null,
    readonly id: string,
  ) {
    super(null, false, null);
  }
}

/** What one check reports, for the raw sample kept in the store's bounded ring. */
export interface CheckSample {
  context: Record<string, unknown>;
  /** As the event reports it: the result, or the config's `{ key, payload }`. */
  result: unknown;
  ruleResults: readonly boolean[];
  missing: readonly string[];
}
