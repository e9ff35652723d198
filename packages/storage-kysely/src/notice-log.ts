import type { ChangeNotice } from '@flagmount/core';
import type { Kysely } from 'kysely';
import type { ValueEncoding } from './codec.js';
import { describeError } from './logger.js';
import type { ChangeFeed, FeedContext } from './poller.js';
import type { Database } from './schema.js';

/**
 * Writes notices to the `change_notices` log. Called inside the publishing transaction, so the rows commit with it
 * or vanish with it — the same guarantee NOTIFY gives on Postgres.
 */
export async function appendNotices(
  db: Kysely<Database>,
  notices: readonly ChangeNotice[],
  options: { origin: string; explicit: boolean; enc: ValueEncoding },
): Promise<void> {
  if (notices.length === 0) return;
  const createdAt = new Date().toISOString();
  await db
    .insertInto('change_notices')
    .values(
      notices.map((notice) => ({
        env_id: notice.envId,
        version: notice.version,
        origin: options.origin,
        explicit: options.enc.bool(options.explicit),
        created_at: createdAt,
      })),
    )
    .execute();
}

export interface NoticeLogFeedOptions {
  /** This store's id: its own notices were delivered in-process at commit. */
  origin: string;
  intervalMs: number;
  /** Rows older than this are deleted; a process asleep for longer catches up by reloading, not by the log. */
  retentionMs: number;
  /** Rows read per poll, so a long backlog never holds the connection for long. */
  batchSize?: number;
}

const PRUNE_EVERY = 60;

/**
 * Delivers notices other processes committed to a shared database that has no push channel, by reading the notice
 * log from where this store started. Exact (committed notices only, in commit order, explicit ones included), unlike
 * a version poll. Its timer is unref'd.
 */
export class NoticeLogFeed implements ChangeFeed {
  #cursor: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #started: Promise<void> | undefined;
  #inFlight: Promise<void> | undefined;
  #closed = false;
  #failing = false;
  #polls = 0;

  constructor(
    private readonly context: FeedContext,
    private readonly options: NoticeLogFeedOptions,
  ) {}

  start(): Promise<void> {
    this.#started ??= this.#poll().then(() => this.#schedule());
    return this.#started;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }

  #poll(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#inFlight ??= this.#read().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #read(): Promise<void> {
    try {
      const db = this.context.db();
      if (this.#cursor === undefined) {
        // Only what commits from now on: earlier changes are in whatever the store's user loads at start.
        const row = await db
          .selectFrom('change_notices')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirst();
        this.#cursor = Number(row?.seq ?? 0);
      } else {
        const rows = await db
          .selectFrom('change_notices')
          .select(['seq', 'env_id', 'version', 'origin', 'explicit'])
          .where('seq', '>', this.#cursor)
          .orderBy('seq')
          .limit(this.options.batchSize ?? 1000)
          .execute();
        for (const row of rows) {
          if (this.#closed) return;
          this.#cursor = Number(row.seq);
          if (row.origin === this.options.origin) continue;
          const explicit = row.explicit === true || row.explicit === 1;
          this.context.hub.emit({ envId: row.env_id, version: Number(row.version) }, explicit ? 'explicit' : 'commit');
        }
      }
      if (++this.#polls % PRUNE_EVERY === 1) {
        const cutoff = new Date(Date.now() - this.options.retentionMs).toISOString();
        await db.deleteFrom('change_notices').where('created_at', '<', cutoff).execute();
      }
      if (this.#failing) this.context.logger.info('storage notice log readable again');
      this.#failing = false;
    } catch (error) {
      // Warn once per outage; the next poll retries from the same cursor, so nothing is skipped.
      if (!this.#failing) this.context.logger.warn('storage notice log poll failed', describeError(error));
      this.#failing = true;
    }
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      void this.#poll().then(() => this.#schedule());
    }, this.options.intervalMs);
    this.#timer.unref?.();
  }
}
