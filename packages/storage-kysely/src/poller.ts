import type { ChangeNotice } from '@flagmount/core';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ChangeHub } from './notices.js';
import { describeError, type StorageLogger } from './logger.js';

/** What a store hands to its dialect's change feed. */
export interface FeedContext {
  readonly hub: ChangeHub;
  /** The store's root connection; throws once the store is closed. */
  db(): Kysely<Database>;
  /** Every environment's current flagStateVersion. */
  listVersions(): Promise<ChangeNotice[]>;
  readonly logger: StorageLogger;
}

/** Delivery of changes committed by other processes. `start` is idempotent and resolves once the feed is live. */
export interface ChangeFeed {
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface VersionPollerOptions {
  /** Read before every wait, so a feed can poll faster while its push channel is down. */
  intervalMs(): number;
}

/**
 * Reads every environment's version on a timer and reports rises nobody announced. It is the whole feed where
 * there is no push channel (a SQLite file shared by processes), and the safety net where there is one.
 * Its timer is unref'd: a forgotten store never keeps the host process alive.
 */
export class VersionPoller implements ChangeFeed {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #started: Promise<void> | undefined;
  #inFlight: Promise<void> | undefined;
  #closed = false;
  #failing = false;

  constructor(
    private readonly context: FeedContext,
    private readonly options: VersionPollerOptions,
  ) {}

  start(): Promise<void> {
    this.#started ??= this.pollNow().then(() => this.#schedule());
    return this.#started;
  }

  /** Polls once; concurrent callers share the poll in flight. Never rejects. */
  pollNow(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#inFlight ??= this.#poll().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /** Moves the next poll earlier when the interval shrank (e.g. the push channel just dropped). */
  reschedule(): void {
    if (this.#started === undefined || this.#closed) return;
    clearTimeout(this.#timer);
    this.#schedule();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }

  async #poll(): Promise<void> {
    try {
      const versions = await this.context.listVersions();
      if (this.#closed) return;
      this.context.hub.observe(versions);
      if (this.#failing) this.context.logger.info('storage version poll recovered');
      this.#failing = false;
    } catch (error) {
      // Warn once per outage, then stay quiet until it recovers: the host's log is not ours to flood.
      if (!this.#failing) this.context.logger.warn('storage version poll failed', describeError(error));
      else this.context.logger.debug('storage version poll failed', describeError(error));
      this.#failing = true;
    }
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      void this.pollNow().then(() => this.#schedule());
    }, this.options.intervalMs());
    this.#timer.unref?.();
  }
}
