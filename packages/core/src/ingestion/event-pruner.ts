import type { Logger } from '../logger.js';
import type { Storage } from '../storage/port.js';

export interface EventPrunerOptions {
  /** Track events, prompt events and feedback older than this many days are deleted. */
  eventsDays: number;
  /** Between rounds (default an hour): what is due goes within a round of its day. */
  intervalMs?: number;
  /** Rows per statement (default 500): each is its own short transaction, beside ingestion. */
  batch?: number;
  /** Between batches of a round (default 100 ms), so a large backlog never monopolises the database. */
  pauseMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * Retention (`retention.eventsDays`): a background round at start and then periodically deletes what is older than
 * the window, a small batch at a time. On a store shared by replicas `Storage.pruneEvents` lets one of them work at a
 * time; the others' calls delete nothing and their round ends. The timer never keeps the host's process alive; a
 * failing round is logged and retried at the next one.
 */
export class EventPruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  /** Rows this instance deleted, for `flags.stats()`. */
  pruned = 0;

  constructor(
    private readonly storage: Storage,
    private readonly logger: Logger,
    private readonly options: EventPrunerOptions,
    private readonly now: () => Date,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** One round; rounds never overlap. */
  round(): Promise<void> {
    this.running ??= this.prune().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.round().then(() => this.schedule(this.options.intervalMs ?? 60 * 60 * 1000));
    }, delayMs);
    this.timer.unref();
  }

  private async prune(): Promise<void> {
    const batch = this.options.batch ?? 500;
    const before = new Date(this.now().getTime() - this.options.eventsDays * DAY_MS).toISOString();
    try {
      while (!this.closed) {
        const deleted = await this.storage.pruneEvents(before, batch);
        this.pruned += deleted;
        if (deleted < batch) break;
        await pause(this.options.pauseMs ?? 100);
      }
    } catch (error) {
      this.logger.warn('flagmount: pruning old events failed; retrying at the next round', { error });
    }
  }
}
