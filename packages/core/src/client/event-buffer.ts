import { LRUCache } from 'lru-cache';
import { batchSize } from '../ingestion/ingest-batch.js';
import { BatchBuilder } from '../runtime/ingest/batch-builder.js';
import { invalidateRemoteContext } from '../runtime/context/remote-context.js';
import type { FeatureEventBody } from '../schemas/feature-event.js';
import type { Services } from '../services.js';

/** Same window as Reflag's node SDK: an identical check or context update is sent at most once a minute. */
const DEDUPE_WINDOW_MS = 60_000;
const FLUSH_INTERVAL_MS = 1_000;
const FLUSH_AT_ITEMS = 500;

/**
 * Check events and context updates of the in-process client. Evaluation is synchronous, so these are buffered
 * and submitted through the group-commit writer in the background (every second, at 500 items, on `flush()`).
 */
export class EventBuffer {
  private builders = new Map<string, BatchBuilder>();
  private items = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly seen = new LRUCache<string, true>({ max: 20_000, ttl: DEDUPE_WINDOW_MS });

  constructor(private readonly services: Services) {}

  /** Adds a check unless the same one was recorded within the window. */
  check(envId: string, event: FeatureEventBody): void {
    if (!this.fresh([envId, event.action, event.key, event.targetingVersion, event.evalResult, event.evalContext])) return;
    this.builder(envId).check(event, this.services.now().toISOString());
    this.added();
  }

  /** The node SDK's context sync: users and companies seen in evaluations are created or updated. */
  syncContext(envId: string, context: { user?: Record<string, unknown>; company?: Record<string, unknown> }): void {
    const at = this.services.now().toISOString();
    const { user, company } = context;
    const userId = entityId(user?.['id']);
    const companyId = entityId(company?.['id']);
    if (companyId !== undefined && company) {
      const { id: _id, ...attributes } = company;
      if (this.fresh(['company', envId, companyId, userId, attributes])) {
        this.builder(envId).company({ companyId, ...(userId !== undefined ? { userId } : {}), attributes }, at);
        this.added();
      }
    }
    if (userId !== undefined && user) {
      const { id: _id, ...attributes } = user;
      if (this.fresh(['user', envId, userId, attributes])) {
        this.builder(envId).user({ userId, attributes }, at);
        this.added();
      }
    }
  }

  /** Submits everything buffered; resolves when committed. Failures are logged, never thrown (as in the SDK). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const builders = this.builders;
    this.builders = new Map();
    this.items = 0;
    this.flushing = this.flushing.then(() => this.submit(builders));
    return this.flushing;
  }

  private async submit(builders: Map<string, BatchBuilder>): Promise<void> {
    for (const builder of builders.values()) {
      const batch = builder.build();
      if (!batchSize(batch)) continue;
      try {
        await this.services.ingestion.submit(batch);
        invalidateRemoteContext(this.services, builder.touchedEntities());
      } catch (error) {
        this.services.logger.warn('flagmount: could not store check events of the in-process client', { error });
      }
    }
  }

  private fresh(parts: unknown[]): boolean {
    let key: string;
    try {
      key = JSON.stringify(parts);
    } catch {
      // Attributes that cannot be serialised cannot be stored either.
      return false;
    }
    if (this.seen.has(key)) return false;
    this.seen.set(key, true);
    return true;
  }

  private builder(envId: string): BatchBuilder {
    let builder = this.builders.get(envId);
    if (!builder) {
      // Tracks are not buffered, so the flag keys (what makes an event a track) are never needed here.
      builder = new BatchBuilder(envId, new Set());
      this.builders.set(envId, builder);
    }
    return builder;
  }

  private added(): void {
    this.items++;
    if (this.items >= FLUSH_AT_ITEMS) {
      void this.flush();
      return;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }
}

function entityId(id: unknown): string | undefined {
  if (typeof id === 'string' && id.length) return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}
