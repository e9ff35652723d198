import { invalidateRemoteContext } from '../runtime/context/remote-context.js';
import type { IngestBatch } from '../ingestion/ingest-batch.js';
import type { Services } from '../services.js';
import type { FlagEvaluation } from '@flagmount/engine';
import { EnvAnalytics, type CheckSample } from './env-analytics.js';
import type { FlagContext } from './types.js';

const FLUSH_INTERVAL_MS = 1_000;
/**
 * Rows (aggregates, context updates, samples) waiting for the next flush. Past this, checks and context updates
 * are dropped and counted: a synchronous loop of millions of checks must not grow the host's heap.
 */
export const MAX_PENDING_ROWS = 50_000;
/** Raw checks kept per flush for the store's recent-checks ring; the counts never depend on them. */
const SAMPLES_PER_FLUSH = 1_000;
/** Items per ingestion batch: under the group-commit queue's bound, so a flush never meets a 503 of its own making. */
const BATCH_ITEMS = 2_000;
const DROP_LOG_INTERVAL_MS = 60_000;

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
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private lastDropLog = -Infinity;
  readonly stats: Omit<ClientAnalyticsStats, 'pendingRows'> = {
    checksCounted: 0,
    checksDropped: 0,
    contextUpdatesDropped: 0,
    failedFlushes: 0,
  };

  constructor(private readonly services: Services) {}

  get pendingRows(): number {
    return this.pending;
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
    const env = this.env(envId);
    const now = this.services.now().getTime();
    const user = context.user;
    const company = context.company;
    const userId = typeof user === 'object' && user !== null ? idOf(user.id) : null;
    const companyId = typeof company === 'object' && company !== null ? idOf(company.id) : null;
    const userSeen = userId !== null ? env.user(userId) : null;
    const companySeen = companyId !== null ? env.company(companyId) : null;
    if (userSeen !== null && env.needsSync(userSeen, user!, now)) {
      if (this.room()) this.added(env.sync(userSeen, 'user', userId!, user!, now));
      else this.drop('context');
    }
    if (companySeen !== null) {
      if (env.needsSync(companySeen, company!, now)) {
        if (this.room()) this.added(env.sync(companySeen, 'company', companyId!, company!, now));
        else this.drop('context');
      }
      if (userSeen !== null && userSeen.company !== companyId) {
        if (this.room()) this.added(env.associate(userSeen, companyId!, userId!, now));
        else this.drop('context');
      }
    }
    if (flagKey === null) return;
    const seen = userSeen ?? companySeen ?? env.anonymousEntry;
    if (env.isCounted(seen, flagKey, config, version, result, companyId, now)) return;
    if (!this.room()) {
      this.drop('check');
      return;
    }
    const sample = evaluation !== undefined && env.sampleCount < SAMPLES_PER_FLUSH ? sampleOf(context, config, evaluation) : undefined;
    this.stats.checksCounted++;
    this.added(env.count(seen, flagKey, config, version, result, userId, companyId, now, sample));
  }

  /** Submits everything buffered; resolves when committed. Failures are logged, never thrown (as in the SDK). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending === 0) return this.flushing;
    const batches: IngestBatch[] = [];
    for (const env of this.envs.values()) batches.push(...env.drain(BATCH_ITEMS));
    this.pending = 0;
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

  private room(): boolean {
    return this.pending < MAX_PENDING_ROWS;
  }

  private added(rows: number): void {
    if (rows === 0) return;
    this.pending += rows;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Counts a drop; says so through the logger at most once a minute, and never throws. */
  private drop(kind: 'check' | 'context'): void {
    if (kind === 'check') this.stats.checksDropped++;
    else this.stats.contextUpdatesDropped++;
    const now = Date.now();
    if (now - this.lastDropLog < DROP_LOG_INTERVAL_MS) return;
    this.lastDropLog = now;
    try {
      this.services.logger.warn('flagmount: in-process analytics buffer full; checks are dropped and counted until the next flush', {
        checksDropped: this.stats.checksDropped,
        contextUpdatesDropped: this.stats.contextUpdatesDropped,
        maxPendingRows: MAX_PENDING_ROWS,
      });
    } catch {
      // A host logger that throws must not turn a flag check into an exception.
    }
  }
}
