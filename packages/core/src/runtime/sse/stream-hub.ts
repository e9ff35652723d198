import { notAvailable } from '../../http/http-error.js';
import type { CoreResponse, StreamSink } from '../../http/types.js';
import type { Logger } from '../../logger.js';
import type { SnapshotCache } from '../../snapshot/snapshot-cache.js';

export interface StreamHubOptions {
  maxConnectionsPerEnvironment: number;
  heartbeatMs: number;
}

interface Connection {
  envId: string;
  /** Whether the key that opened the stream still opens it; asked when the environment's keys change. */
  holds: () => boolean;
  sink: StreamSink | undefined;
  /** Set once the stream ended, from either side; a closed connection is never written to again. */
  closed: boolean;
}

/**
 * The message both Reflag clients parse (node SDK `flag-updates-sse.js`, browser SDK `sse.ts`): an event on the
 * default `message` type whose data is `{"name":"flags-updated","data":{"flagStateVersion":N}}`.
 */
export function flagsUpdatedMessage(version: number): string {
  return `data: ${JSON.stringify({ name: 'flags-updated', data: { flagStateVersion: version } })}\n\n`;
}

const UNOPENED_TIMEOUT_MS = 30_000;

/** A comment line: both clients skip it; it keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT = ':\n\n';

/** The headers of every stream answer (and of a HEAD on a stream route). */
export const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // Tells nginx-style proxies not to buffer the stream.
  'x-accel-buffering': 'no',
};

/**
 * Live `flags-updated` streams (`/sse/server` for the node SDK's push mode, `/sse/client` for the browser SDK).
 * Every stream gets the current version on connect and each new version of its environment; one shared timer
 * sends heartbeats. Connections are capped per environment so a reconnect storm cannot exhaust the host.
 */
export class StreamHub {
  private readonly byEnv = new Map<string, Set<Connection>>();
  private readonly unsubscribe: () => void;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly snapshots: SnapshotCache,
    private readonly logger: Logger,
    private readonly options: StreamHubOptions,
  ) {
    const updates = snapshots.onUpdate((state) => this.broadcast(state.environment.id, state.version));
    const keys = snapshots.onKeysChange((envId) => this.endRevoked(envId));
    this.unsubscribe = () => {
      updates();
      keys();
    };
  }

  /** Open streams of one environment (or of all). */
  count(envId?: string): number {
    if (envId !== undefined) return this.byEnv.get(envId)?.size ?? 0;
    let n = 0;
    for (const set of this.byEnv.values()) n += set.size;
    return n;
  }

  /**
   * A 200 `text/event-stream` response for `envId`, or a 503 error when the environment is at its cap or the hub
   * is closed. The slot is taken now, so concurrent requests can never exceed the cap. The stream ends when its
   * environment's keys change and `holds` (the opening key still opens it) is false: a rotated or deleted key.
   */
  open(envId: string, holds: () => boolean = () => true): CoreResponse {
    if (this.closed) throw notAvailable('Flagmount is shutting down');
    const set = this.byEnv.get(envId) ?? new Set<Connection>();
    if (set.size >= this.options.maxConnectionsPerEnvironment) {
      this.logger.warn('flagmount: SSE connection limit reached', { envId, limit: this.options.maxConnectionsPerEnvironment });
      throw notAvailable(`Too many live update connections for this environment (limit ${this.options.maxConnectionsPerEnvironment})`);
    }
    const connection: Connection = { envId, holds, sink: undefined, closed: false };
    set.add(connection);
    this.byEnv.set(envId, set);
    this.startHeartbeat();
    // A response that is never written (the request failed in the host first) must not hold its slot forever.
    setTimeout(() => {
      if (!connection.sink) this.release(connection);
    }, UNOPENED_TIMEOUT_MS).unref();
    return {
      status: 200,
      headers: { ...STREAM_HEADERS },
      stream: {
        open: (sink) => {
          if (connection.closed) {
            sink.end();
            return () => {};
          }
          connection.sink = sink;
          // Current version on connect: a client that missed updates while disconnected catches up at once.
          const version = this.snapshots.get(envId)?.version;
          if (version !== undefined) this.write(connection, flagsUpdatedMessage(version));
          return () => this.release(connection);
        },
      },
    };
  }

  /** Ends every stream and refuses new ones. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const set of [...this.byEnv.values()]) for (const connection of [...set]) this.end(connection);
  }

  /** Ends the streams of `envId` whose key no longer opens them. */
  private endRevoked(envId: string): void {
    const set = this.byEnv.get(envId);
    if (!set) return;
    for (const connection of [...set]) if (!connection.holds()) this.end(connection);
  }

  private end(connection: Connection): void {
    const sink = connection.sink;
    this.release(connection);
    try {
      sink?.end();
    } catch (error) {
      this.logger.debug('flagmount: could not end an SSE stream', { error });
    }
  }

  private broadcast(envId: string, version: number): void {
    const set = this.byEnv.get(envId);
    if (!set) return;
    const message = flagsUpdatedMessage(version);
    for (const connection of [...set]) this.write(connection, message);
  }

  private write(connection: Connection, chunk: string): void {
    if (connection.closed || !connection.sink) return;
    try {
      connection.sink.write(chunk);
    } catch (error) {
      // A broken socket must not stop the others from getting the update.
      this.logger.debug('flagmount: SSE write failed, dropping the stream', { envId: connection.envId, error });
      this.release(connection);
    }
  }

  private release(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    connection.sink = undefined;
    const set = this.byEnv.get(connection.envId);
    if (set) {
      set.delete(connection);
      if (!set.size) this.byEnv.delete(connection.envId);
    }
    if (!this.byEnv.size && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  private startHeartbeat(): void {
    if (this.heartbeat || this.options.heartbeatMs <= 0) return;
    this.heartbeat = setInterval(() => {
      for (const set of [...this.byEnv.values()]) for (const connection of [...set]) this.write(connection, HEARTBEAT);
    }, this.options.heartbeatMs);
    this.heartbeat.unref();
  }
}
