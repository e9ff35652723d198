import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import type { NotificationDestination, ResolvedOptions } from '../../options.js';

export interface NotifierTuning {
  /** Delays before each retry; the number of entries is the number of retries. Default 1 s, 5 s, 30 s. */
  retryDelaysMs?: number[];
  /** Per attempt. Default 10 s. */
  timeoutMs?: number;
  /** How long `close()` waits for deliveries already on the wire. Default 2 s. */
  closeGraceMs?: number;
  /** Injected for tests; the global `fetch` otherwise. */
  fetch?: typeof fetch;
}

/** Statuses worth another try: the destination is busy or broken, not refusing this message. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Delivers targeting-change notifications (management rows 9/11, field `notifications`) to the webhook URL
 * configured for each destination: a JSON POST, after the commit, off the request path. A destination that is down
 * is retried a few times with growing delays; a failure is logged, never reported to the caller, and never
 * undoes the mutation (architecture.md, "Notifications").
 */
export class Notifier {
  private readonly retryDelaysMs: number[];
  private readonly timeoutMs: number;
  private readonly closeGraceMs: number;
  private readonly fetchFn: typeof fetch;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Map<Promise<void>, AbortController>();
  private closed = false;

  constructor(
    private readonly options: ResolvedOptions['notifications'],
    private readonly logger: Logger,
    tuning: NotifierTuning = {},
  ) {
    this.retryDelaysMs = tuning.retryDelaysMs ?? [1000, 5000, 30_000];
    this.timeoutMs = tuning.timeoutMs ?? 10_000;
    this.closeGraceMs = tuning.closeGraceMs ?? 2000;
    this.fetchFn = tuning.fetch ?? ((...args) => fetch(...args));
  }

  /**
   * The destinations a request asks for: omitted → the configured defaults; `[]` → none. Destinations without a
   * configured URL are dropped (and logged once per request): a request may name both, a deployment may have one.
   */
  resolve(requested: readonly NotificationDestination[] | undefined): Array<{ destination: NotificationDestination; url: string }> {
    const names = requested ?? this.options.defaults;
    const out: Array<{ destination: NotificationDestination; url: string }> = [];
    for (const destination of new Set(names)) {
      const url = this.options[destination];
      if (url) out.push({ destination, url });
      else this.logger.debug('flagmount: notification destination not configured, skipped', { destination });
    }
    return out;
  }

  /** Queues delivery and returns at once. Never throws. */
  notify(requested: readonly NotificationDestination[] | undefined, payload: Record<string, unknown>): void {
    if (this.closed) return;
    try {
      for (const { destination, url } of this.resolve(requested)) {
        const deliveryId = randomUUID();
        const body = JSON.stringify({ ...payload, destination, deliveryId });
        this.attempt(destination, url, body, deliveryId, 0);
      }
    } catch (error) {
      this.logger.error('flagmount: could not queue notification', { error });
    }
  }

  /** Stops retries, waits up to the grace period for deliveries on the wire, then aborts them. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.inFlight.size) {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.inFlight.keys()]),
        new Promise<void>((resolve) => {
          grace = setTimeout(resolve, this.closeGraceMs);
          grace.unref();
        }),
      ]);
      if (grace) clearTimeout(grace);
      for (const controller of this.inFlight.values()) controller.abort();
    }
  }

  private attempt(destination: NotificationDestination, url: string, body: string, deliveryId: string, attempt: number): void {
    if (this.closed) return;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), this.timeoutMs);
    timeout.unref();
    const delivery = (async () => {
      let failure: string;
      try {
        const response = await this.fetchFn(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'flagmount-notifier',
            // Receivers can drop duplicates when a retry follows a delivery whose answer was lost.
            'x-flagmount-delivery': deliveryId,
          },
          body,
          signal: controller.signal,
        });
        await response.body?.cancel().catch(() => {});
        if (response.ok) return;
        if (!retryable(response.status)) {
          this.logger.warn('flagmount: notification refused by destination', { destination, status: response.status });
          return;
        }
        failure = `HTTP ${response.status}`;
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      } finally {
        clearTimeout(timeout);
      }
      this.retry(destination, url, body, deliveryId, attempt, failure);
    })();
    const tracked = delivery.catch((error: unknown) => this.logger.error('flagmount: notification delivery crashed', { error }));
    this.inFlight.set(tracked, controller);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  private retry(destination: NotificationDestination, url: string, body: string, deliveryId: string, attempt: number, failure: string): void {
    const delay = this.retryDelaysMs[attempt];
    if (delay === undefined || this.closed) {
      this.logger.warn('flagmount: notification not delivered', { destination, attempts: attempt + 1, failure });
      return;
    }
    this.logger.debug('flagmount: notification failed, retrying', { destination, attempt: attempt + 1, failure, delayMs: delay });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(destination, url, body, deliveryId, attempt + 1);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}
