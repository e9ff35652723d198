import type { InFlight } from './http/in-flight.js';
import type { GroupCommitWriter } from './ingestion/group-commit-writer.js';
import type { Logger } from './logger.js';
import type { ResolvedOptions } from './options.js';
import type { SnapshotCache } from './snapshot/snapshot-cache.js';
import type { Storage } from './storage/port.js';
import type { StreamHub } from './runtime/sse/stream-hub.js';
import type { Notifier } from './management/notifications/notifier.js';

/** What routes and services share: infrastructure only, no business rules. */
export interface Services {
  readonly storage: Storage;
  readonly logger: Logger;
  readonly options: ResolvedOptions;
  now(): Date;
  readonly snapshots: SnapshotCache;
  readonly ingestion: GroupCommitWriter;
  /** Live `flags-updated` streams (SSE). */
  readonly streams: StreamHub;
  /** Targeting-change notifications to the configured destinations. */
  readonly notifier: Notifier;
  /** Answers under way, on every mount's handler: `close()` lets them finish before it closes the store. */
  readonly inFlight: InFlight;
}
