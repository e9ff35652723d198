import { invalidateRemoteContext } from '../runtime/context/remote-context.js';
import type { IngestBatch } from '../ingestion/ingest-batch.js';
import type { Services } from '../services.js';
import type { FlagEvaluation } from '@flagmount/engine';
import { stringHash } from './attribute-hash.js';
import { COMPANY, USER } from './entity-cache.js';
import { CheckCall, EnvAnalytics, type CheckSample } from './env-analytics.js';
import type { FlagContext } from './types.js';

const FLUSH_INTERVAL_MS = 1_000;
/**
 * Rows waiting for the next flush: check aggregates (and samples), and context updates, each with its own budget so
 * that a flood of new users cannot crowd out the counts. Past it, they are dropped and counted: a synchronous loop
 * of millions of checks must not grow the host's heap.
 */
export const MAX_PENDING_CHECK_ROWS = 50_000;
export const MAX_PENDING_CONTEXT_ROWS = 50_000;
/** Raw checks kept per flush for the store's recent-checks ring; the counts never depend on them. */
const SAMPLES_PER_FLUSH = 1_000;
/** Items per ingestion batch: under the group-commit queue's bound, so a flush never meets a 503 of its own making. */
const BATCH_ITEMS = 2_000;
const DROP_LOG_INTERVAL_MS = 60_000;
/** Checks that share one reading of the clock in a synchronous stretch (see `clock`). */
const CLOCK_USES = 256;

/** What the in-process clients counted and dropped (`flags.stats()`). */
export interface ClientAnalyticsStats {
  /** Checks counted (after the one-minute dedupe) and handed to the store. */
  checksCounted: number;
  /** Checks a full buffer could not hold. */
  checksDropped: number;
  /** User or company updates (context sync) a full buffer could not hold. */
  contextUpdatesDropped: number;
  /** Rows waiting for the next flush. */
  pendingRows: number;
  /** Batches the store refused or failed to write (logged). */
  failedFlushes: number;
}

/** The raw event of a check, as `POST /features/events` would carry it (copies: the host may change its objects). */
function sampleOf(context: FlagContext, config: boolean, evaluation: FlagEvaluation): CheckSample {
  const evalContext: Record<string, unknown> = {};
  for (const key in context) {
    if (key === 'enableTracking' || !Object.prototype.hasOwnProperty.call(context, key)) continue;
    const value = (context as Record<string, unknown>)[key];
    evalContext[key] = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : value;
  }
  if (!config) {
    return {
      context: evalContext,
      result: evaluation.isEnabled,
      ruleResults: evaluation.ruleEvaluationResults,
      missing: evaluation.missingContextFields,
    };
  }
  const c = evaluation.config;
  return {
    context: evalContext,
    result: { key: c?.key ?? undefined, payload: c?.payload ?? undefined },
    ruleResults: c?.ruleEvaluationResults ?? [],
    missing: c?.missingContextFields ?? [],
  };
}

const idOf = (id: unknown): string | null =>
  typeof id === 'string' ? (id.length ? id : null) : typeof id === 'number' && Number.isFinite(id) ? String(id) : null;

/**
 * Checks and context updates of an in-process client. Evaluation is synchronous, so these are aggregated in memory
 * (EnvAnalytics) and submitted through the group-commit writer every second and on `flush()`/`close()`. Nothing
 * here grows without a bound, and nothing here throws into the host's code.
 */
export class EventBuffer {
  private readonly envs = new Map<string, EnvAnalytics>();
  private last: EnvAnalytics | undefined;
  private pendingChecks = 0;
  private pendingContext = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private lastDropLog = -Infinity;
  readonly stats: Omit<ClientAnalyticsStats, 'pendingRows'> = {
    checksCounted: 0,
    checksDropped: 0,
    contextUpdatesDropped: 0,
    failedFlushes: 0,
  };

  /** The coarse clock: the last time read, and how many more calls may use it. */
  private clockMs = 0;
  private clockUses = 0;
  private clockExpiry = false;
  /** Bound once: scheduled at most once per synchronous stretch, it allocates nothing per call. */
  private readonly expireClock = (): void => {
    this.clockUses = 0;
    this.clockExpiry = false;
  };

  /** The last call's user and company objects, when their sync went through whole (see `record`). */
  private readonly lastSync = {
    user: undefined as FlagContext['user'] | undefined,
    company: undefined as FlagContext['company'] | undefined,
    env: undefined as EnvAnalytics | undefined,
    second: -1,
    userId: null as string | null,
    userHash: 0,
    userSlot: -1,
    companyId: null as string | null,
    companyHash: 0,
    companySlot: -1,
    entityEpoch: -1,
  };
  /** The current call's inputs, reused. */
  private readonly call = new CheckCall();

  /**
   * A `getFlag`'s context sync, held until its flag is read (then one pass syncs and counts, as `isEnabled` does)
   * or the synchronous stretch ends (a microtask syncs it): a flag read right away then costs no second pass.
   */
  private held: FlagContext | undefined;
  private heldEnv = '';
  private heldScheduled = false;
  private readonly syncHeldLater = (): void => {
    this.heldScheduled = false;
    this.syncHeld();
  };

  constructor(private readonly services: Services) {}

  /**
   * Now in ms, read from `services.now()` at most once per CLOCK_USES calls and once per synchronous stretch (a
   * microtask expires it): a `Date` per check was a tenth of the tracked call. The time a check is stamped with is
   * off by at most the time of that many calls in one stretch, far below the one-minute window and the served
   * fields' meaning; every await, request or event-loop turn reads the clock afresh.
   */
  private clock(): number {
    if (this.clockUses > 0) {
      this.clockUses--;
      return this.clockMs;
    }
    this.clockUses = CLOCK_USES - 1;
    if (!this.clockExpiry) {
      this.clockExpiry = true;
      queueMicrotask(this.expireClock);
    }
    return (this.clockMs = this.services.now().getTime());
  }

  get pendingRows(): number {
    return this.pendingChecks + this.pendingContext;
  }

  /**
   * The node SDK's context sync and, when `flagKey` is given, a check of the context: counted unless the same one
   * was counted within the minute. `result` is the flag's result, or its config's key for a config check.
   * `evaluation` gives the raw event kept (for some checks) in the store's recent-checks ring.
   */
  record(
    envId: string,
    context: FlagContext,
    flagKey: string | null,
    config: boolean,
    version: number,
    result: unknown,
    evaluation: FlagEvaluation | undefined,
  ): void {
    this.takeHeld(envId, context);
    const now = this.clock();
    const env = this.env(envId);
    const user = context.user;
    const company = context.company;
    const call = this.call;
    const userId = (call.userId = typeof user === 'object' && user !== null ? idOf(user.id) : null);
    const companyId = (call.companyId = typeof company === 'object' && company !== null ? idOf(company.id) : null);
    const second = Math.floor(now / 1000);
    const last = this.lastSync;
    if (
      last.user === user && last.company === company && last.env === env && last.second === second &&
      last.userId === userId && last.companyId === companyId && last.entityEpoch === env.entityEpoch && user !== undefined
    ) {
      // The same user and company objects as the last call, this second: nothing to sync (same object, within the
      // window), nothing to hash or look up. getFlag then isEnabled, or several flags of one request.
      call.userHash = last.userHash;
      call.userSlot = last.userSlot;
      call.companyHash = last.companyHash;
      call.companySlot = last.companySlot;
    } else {
      call.userHash = userId !== null ? stringHash(userId) : 0;
      call.companyHash = companyId !== null ? stringHash(companyId) : 0;
      // A sync that a full buffer dropped is not tried again for the same objects this second: it was counted as
      // dropped once, and the next flag of the same request (getFlag then isEnabled) then costs no second lookup.
      if (this.pendingChecks >= MAX_PENDING_CHECK_ROWS && this.pendingContext >= MAX_PENDING_CONTEXT_ROWS) this.peekContext(env, user, now);
      else this.syncContext(env, user, company, now);
      last.user = user;
      last.company = company;
      last.env = env;
      last.second = second;
      last.userId = userId;
      last.userHash = call.userHash;
      last.userSlot = call.userSlot;
      last.companyId = companyId;
      last.companyHash = call.companyHash;
      last.companySlot = call.companySlot;
      last.entityEpoch = env.entityEpoch;
    }
    if (flagKey === null) return;
    call.flagKey = flagKey;
    call.config = config;
    call.version = version;
    call.result = result;
    env.findOwnerCheck(call);
    if (env.isCounted(call, now)) return;
    if (this.pendingChecks >= MAX_PENDING_CHECK_ROWS) {
      this.drop('check');
      return;
    }
    const sample = evaluation !== undefined && env.sampleCount < SAMPLES_PER_FLUSH ? sampleOf(context, config, evaluation) : undefined;
    this.stats.checksCounted++;
    this.pendingChecks += this.added(env.count(call, now, sample));
  }

  /**
   * The node SDK's context sync for `getFlag`, held (see `held`): done by the flag's first read, by the next call
   * about another context, by `flush()`, or at the end of the synchronous stretch, whichever comes first.
   */
  syncLater(envId: string, context: FlagContext): void {
    this.takeHeld(envId, context);
    this.held = context;
    this.heldEnv = envId;
    if (!this.heldScheduled) {
      this.heldScheduled = true;
      queueMicrotask(this.syncHeldLater);
    }
  }

  /** A call about `context`: the held sync is this call's to do when it is about the same context, else done now. */
  private takeHeld(envId: string, context: FlagContext): void {
    if (this.held === undefined) return;
    if (this.held === context && this.heldEnv === envId) this.held = undefined;
    else this.syncHeld();
  }

  /** The held sync, now. It may run in a microtask, so nothing escapes it (not even a throwing logger). */
  private syncHeld(): void {
    const context = this.held;
    if (context === undefined) return;
    this.held = undefined;
    try {
      this.record(this.heldEnv, context, null, false, 0, undefined, undefined);
    } catch (error) {
      try {
        this.services.logger.warn('flagmount: a context could not be synced', { error });
      } catch {
        // A host logger that throws must not become an uncaught exception in a microtask.
      }
    }
  }

  /** The node SDK's context sync of the call's user and company, remembering both (their slots set on the call). */
  private syncContext(env: EnvAnalytics, user: FlagContext['user'], company: FlagContext['company'], now: number): void {
    const call = this.call;
    const companyId = call.companyId;
    env.remember(call);
    if (call.companySlot >= 0 && env.needsSync(call.companySlot, company!, now) && this.roomForContext()) {
      this.pendingContext += this.added(env.sync(COMPANY, call.companySlot, company!, now));
    }
    if (call.userSlot < 0) return;
    if (env.needsSync(call.userSlot, user!, now) && this.roomForContext()) {
      this.pendingContext += this.added(env.sync(USER, call.userSlot, user!, now));
    }
    if (companyId !== null && env.companyOf(call.userSlot) !== companyId && this.roomForContext()) {
      this.pendingContext += this.added(env.associate(call.userSlot, companyId, now));
    }
  }

  /** Whether a context update fits the budget; if not, it is counted as dropped. */
  private roomForContext(): boolean {
    if (this.pendingContext < MAX_PENDING_CONTEXT_ROWS) return true;
    this.drop('context');
    return false;
  }

  /**
   * Both budgets spent: looks the entities up without remembering new ones (a flood of new users then costs
   * lookups, not memory), counting the user update the sync would have queued as dropped.
   */
  private peekContext(env: EnvAnalytics, user: FlagContext['user'], now: number): void {
    const call = this.call;
    call.companySlot = call.companyId !== null ? env.peekEntity(COMPANY, call.companyId, call.companyHash) : -1;
    call.userSlot = call.userId !== null ? env.peekEntity(USER, call.userId, call.userHash) : -1;
    if (call.userId !== null && (call.userSlot < 0 || env.needsSync(call.userSlot, user!, now))) this.drop('context');
  }

  /** Submits everything buffered; resolves when committed. Failures are logged, never thrown (as in the SDK). */
  flush(): Promise<void> {
    this.syncHeld();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pendingChecks + this.pendingContext === 0) return this.flushing;
    const batches: IngestBatch[] = [];
    const now = this.services.now().getTime();
    for (const env of this.envs.values()) batches.push(...env.drain(BATCH_ITEMS));
    this.pendingChecks = 0;
    this.pendingContext = 0;
    this.flushing = this.flushing.then(() => this.submit(batches));
    return this.flushing;
  }

  private async submit(batches: IngestBatch[]): Promise<void> {
    for (const batch of batches) {
      try {
        await this.services.ingestion.submit(batch);
        if (batch.entities) invalidateRemoteContext(this.services, batch.entities);
      } catch (error) {
        this.stats.failedFlushes++;
        this.services.logger.warn('flagmount: could not store check events of the in-process client', { error });
      }
    }
  }

  private env(envId: string): EnvAnalytics {
    const last = this.last;
    if (last !== undefined && last.envId === envId) return last;
    let env = this.envs.get(envId);
    if (!env) {
      env = new EnvAnalytics(envId);
      this.envs.set(envId, env);
    }
    this.last = env;
    return env;
  }

  /** Starts the flush timer once rows are pending; returns `rows`. */
  private added(rows: number): number {
    if (rows > 0 && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
    return rows;
  }

  /** Counts a drop; says so through the logger at most once a minute, and never throws. Returns false (for `whole`). */
  private drop(kind: 'check' | 'context'): false {
    if (kind === 'check') this.stats.checksDropped++;
    else this.stats.contextUpdatesDropped++;
    // The coarse clock of this call: a drop happens in a flood, where reading the time per call would cost most.
    const now = this.clockMs;
    if (now - this.lastDropLog < DROP_LOG_INTERVAL_MS) return false;
    this.lastDropLog = now;
    try {
      this.services.logger.warn('flagmount: in-process analytics buffer full; checks are dropped and counted until the next flush', {
        checksDropped: this.stats.checksDropped,
        contextUpdatesDropped: this.stats.contextUpdatesDropped,
        maxPendingCheckRows: MAX_PENDING_CHECK_ROWS,
        maxPendingContextRows: MAX_PENDING_CONTEXT_ROWS,
      });
    } catch {
      // A host logger that throws must not turn a flag check into an exception.
    }
    return false;
  }
}
