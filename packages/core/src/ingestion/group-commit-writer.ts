import type { Logger } from '../logger.js';
import { notAvailable } from '../http/http-error.js';
import type { Repositories, Storage } from '../storage/port.js';
import type { CheckEventRecord, EntityFlagStatsRecord, FlagDailyStatsRecord } from '../storage/records.js';
import { applyEntityUpserts } from './apply-entity-upserts.js';
import { batchSize, mergeDailyStats, mergeEntityStats, type IngestBatch } from './ingest-batch.js';

interface Pending {
  batch: IngestBatch;
  size: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  flushIntervalMs: number;
  maxBatch: number;
  maxQueue: number;
  /** Raw check events kept per environment (the recent-checks ring); undefined keeps them all. */
  recentChecks?: number;
}

/**
 * Group commit: concurrent ingestion requests wait a few milliseconds and are written in one transaction. Each
 * request's promise resolves only after that transaction committed, so a 200 always means stored, and throughput
 * scales with batch size rather than with fsyncs. The queue is bounded: beyond `maxQueue` items a request is
 * refused at once (503) instead of growing memory.
 *
 * A store that runs append-only transactions side by side (`Storage.appendConcurrency`, Postgres) gets that many
 * batches in flight: each commit waits on the disk, and one at a time would leave the database mostly idle. Batches
 * that upsert entities or store feedback read before they write, so they are marked as ordinary transactions and the
 * store runs them alone.
 */
export class GroupCommitWriter {
  private queue: Pending[] = [];
  private queued = 0;
  private timer: NodeJS.Timeout | undefined;
  /** A flush queued as a microtask (flushIntervalMs 0). */
  private soon = false;
  private readonly writing = new Set<Promise<void>>();
  private readonly slots: number;
  private closed = false;
  private immediate = false;

  constructor(
    private readonly storage: Storage,
    private readonly logger: Logger,
    private readonly options: GroupCommitOptions,
  ) {
    this.slots = Math.max(1, Math.floor(storage.appendConcurrency ?? 1));
  }

  /** Resolves when the batch is committed; rejects with 503 when the queue is full or the store fails. */
  submit(batch: IngestBatch): Promise<void> {
    const size = batchSize(batch);
    if (size === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(notAvailable('Flagmount is shutting down'));
    if (this.queued + size > this.options.maxQueue) {
      return Promise.reject(notAvailable('Ingestion queue is full, retry shortly'));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ batch, size, resolve, reject });
      this.queued += size;
      if (this.queued >= this.options.maxBatch) void this.flush();
      else this.schedule();
    });
  }

  /** Writes everything queued; resolves when all of it, and every write already under way, is committed (or failed). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length) {
      if (this.writing.size >= this.slots) {
        await Promise.race(this.writing);
        continue;
      }
      const pending = this.queue;
      this.queue = [];
      this.queued = 0;
      const write: Promise<void> = this.write(pending).finally(() => {
        this.writing.delete(write);
        if (this.queue.length) this.schedule();
      });
      this.writing.add(write);
    }
    await Promise.all(this.writing);
  }

  /**
   * From now on every batch is written as soon as it is submitted, as with `flushIntervalMs: 0`: at shutdown the
   * in-process clients hand over what they buffered, and nothing should wait out the interval for company.
   */
  expedite(): void {
    this.immediate = true;
    if (this.queue.length) void this.flush();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private schedule(): void {
    // With every slot busy, the next write starts when one frees (and gathers what arrives meanwhile).
    if (this.timer || this.soon || this.writing.size >= this.slots) return;
    if (this.options.flushIntervalMs <= 0 || this.immediate) {
      // Right after the request that queued it, not on the next timer tick: a timer runs only once the event loop
      // has parsed every request that arrived with this one, so their commit would wait for all of that parsing
      // instead of overlapping with it.
      this.soon = true;
      queueMicrotask(() => {
        this.soon = false;
        void this.flush();
      });
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.flushIntervalMs);
    // Not unref'd: someone is awaiting this commit, so the process must stay up until it happens (a few ms).
  }

  private async write(pending: Pending[]): Promise<void> {
    const entityStats = new Map<string, EntityFlagStatsRecord>();
    const dailyStats = new Map<string, FlagDailyStatsRecord>();
    const merged: Required<IngestBatch> = {
      entities: [],
      memberships: [],
      tracks: [],
      checks: [],
      prompts: [],
      feedback: [],
      entityStats: [],
      dailyStats: [],
    };
    for (const { batch } of pending) {
      if (batch.entities) merged.entities.push(...batch.entities);
      if (batch.memberships) merged.memberships.push(...batch.memberships);
      if (batch.tracks) merged.tracks.push(...batch.tracks);
      if (batch.checks) merged.checks.push(...batch.checks);
      if (batch.prompts) merged.prompts.push(...batch.prompts);
      if (batch.feedback) merged.feedback.push(...batch.feedback);
      if (batch.entityStats) mergeEntityStats(entityStats, batch.entityStats);
      if (batch.dailyStats) mergeDailyStats(dailyStats, batch.dailyStats);
    }
    const appendOnly = !merged.entities.length && !merged.memberships.length && !merged.feedback.length;
    try {
      await this.storage.transaction(async (tx) => {
        if (merged.entities.length) await applyEntityUpserts(tx, merged.entities);
        for (const m of merged.memberships) await tx.entities.addMembership(m);
        if (merged.tracks.length) await tx.events.insertTracks(merged.tracks);
        if (merged.prompts.length) await tx.events.insertPromptEvents(merged.prompts);
        for (const f of merged.feedback) await tx.feedback.put(f);
        if (entityStats.size) await tx.stats.mergeEntityFlagStats([...entityStats.values()]);
        if (dailyStats.size) await tx.stats.mergeFlagDailyStats([...dailyStats.values()]);
        // Last: the ring advances its environment's head, a row side-by-side commits wait on until this one ends.
        if (merged.checks.length) await tx.events.insertChecks(merged.checks, this.options.recentChecks);
      }, { appendOnly });
      for (const p of pending) p.resolve();
    } catch (error) {
      this.logger.error('flagmount: ingestion batch failed', { error, requests: pending.length });
      const refused = notAvailable('Could not store the data, retry shortly');
      for (const p of pending) p.reject(refused);
    }
  }
}
