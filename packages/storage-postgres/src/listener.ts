import { describeError, VersionPoller, type ChangeFeed, type FeedContext } from '@flagmount/storage-kysely';
import pg from 'pg';
import { quoteIdent } from './names.js';

export interface PgChangeFeedOptions {
  connectionString: string;
  channel: string;
  /** This store's id: notices it sent itself were already delivered in-process, at commit. */
  origin: string;
  applicationName: string;
  /** The safety-net poll while LISTEN is up. */
  pollIntervalMs: number;
  /** The poll while LISTEN is down: nothing else would announce changes then. */
  disconnectedPollIntervalMs: number;
  /** false: poll only (e.g. behind a transaction-pooling proxy, where LISTEN does not work). */
  listen: boolean;
  /** Backoff between reconnection attempts: doubles from `min` up to `max`. */
  reconnect: { minMs: number; maxMs: number };
}

/** What `pg_notify` carries: short keys, since a payload is limited to 8000 bytes. */
export interface NoticePayload {
  e: string; // environment id
  v: number; // version
  o: string; // origin store
  x?: 1; // published outside a transaction
}

/**
 * Receives other processes' notices on a dedicated connection (LISTEN), reconnecting with exponential backoff when
 * the connection drops, and polls versions meanwhile and as a safety net. Owns its timers and unrefs them and the
 * socket: a store someone forgot to close never keeps the host process alive.
 */
export class PgChangeFeed implements ChangeFeed {
  readonly #poller: VersionPoller;
  #client: pg.Client | undefined;
  #connected = false;
  #everConnected = false;
  #attempt = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #started: Promise<void> | undefined;
  #closed = false;

  constructor(
    private readonly context: FeedContext,
    private readonly options: PgChangeFeedOptions,
  ) {
    this.#poller = new VersionPoller(context, {
      intervalMs: () =>
        this.#connected || !options.listen ? options.pollIntervalMs : Math.min(options.pollIntervalMs, options.disconnectedPollIntervalMs),
    });
  }

  /** Whether LISTEN is currently active (for health checks and tests). */
  get listening(): boolean {
    return this.#connected;
  }

  start(): Promise<void> {
    // LISTEN before the baseline poll: a change committed in between is then announced rather than lost.
    this.#started ??= (async () => {
      if (this.options.listen) await this.#connect();
      await this.#poller.start();
    })();
    return this.#started;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    await this.#poller.close();
    const client = this.#client;
    this.#client = undefined;
    this.#connected = false;
    if (client) {
      // The socket is unref'd: left so, nothing would keep the loop alive until the server acknowledges the end,
      // and a host awaiting close() with no other work pending would exit right here instead of resuming.
      refSocket(client);
      await client.end().catch(() => {});
    }
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    this.#client = client;
    // Kept for the client's whole life: an 'error' event with no listener would take the host process down.
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, undefined));
    client.on('notification', (message) => {
      if (message.channel === this.options.channel) this.#receive(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdent(this.options.channel)}`);
    } catch (error) {
      this.#lost(client, error);
      return;
    }
    if (this.#closed || this.#client !== client) {
      await client.end().catch(() => {});
      return;
    }
    unrefSocket(client);
    const reconnected = this.#everConnected;
    // Not listening for a while (a lost connection, or failed first attempts): notices may have gone unheard.
    const missed = reconnected || this.#attempt > 0;
    this.#connected = true;
    this.#everConnected = true;
    this.#attempt = 0;
    if (reconnected) this.context.logger.info('postgres change listener reconnected', { channel: this.options.channel });
    if (missed) void this.#catchUp();
    this.#poller.reschedule();
  }

  /**
   * Notices sent while nobody listened are gone. The poll would find versions that rose, but not the changes that
   * publish an unchanged version (rotated keys, a renamed environment) or a first one (a new environment at
   * version 0): every environment is announced once instead, which makes the snapshot cache reload each of them.
   */
  async #catchUp(): Promise<void> {
    try {
      const versions = await this.context.listVersions();
      if (this.#closed) return;
      for (const notice of versions) this.context.hub.emit(notice, 'explicit');
    } catch (error) {
      this.context.logger.warn('postgres change listener could not catch up; polling', { channel: this.options.channel, ...describeError(error) });
      void this.#poller.pollNow();
    }
  }

  #lost(client: pg.Client, error: unknown): void {
    if (client !== this.#client) return; // a stale client's late events ('error' and 'end' both fire)
    this.#client = undefined;
    const wasConnected = this.#connected;
    this.#connected = false;
    void client.end().catch(() => {});
    if (this.#closed) return;
    const details = { channel: this.options.channel, ...(error === undefined ? {} : describeError(error)) };
    if (wasConnected || this.#attempt === 0) this.context.logger.warn('postgres change listener lost its connection', details);
    else this.context.logger.debug('postgres change listener reconnection failed', details);
    const { minMs, maxMs } = this.options.reconnect;
    const delay = Math.min(maxMs, minMs * 2 ** this.#attempt) * (0.75 + Math.random() * 0.5);
    this.#attempt = Math.min(this.#attempt + 1, 30);
    this.#reconnectTimer = setTimeout(() => void this.#connect(), delay);
    this.#reconnectTimer.unref?.();
    this.#poller.reschedule();
  }

  #receive(payload: string | undefined): void {
    let notice: NoticePayload;
    try {
      notice = JSON.parse(payload ?? '') as NoticePayload;
    } catch {
      this.context.logger.warn('postgres change notice unreadable', { channel: this.options.channel });
      return;
    }
    if (typeof notice?.e !== 'string' || typeof notice.v !== 'number') return;
    if (notice.o === this.options.origin) return;
    this.context.hub.emit({ envId: notice.e, version: notice.v }, notice.x ? 'explicit' : 'commit');
  }
}

/** pg exposes no public unref; its socket lives at `connection.stream`. Best effort, by design. */
function unrefSocket(client: pg.Client): void {
  socketOf(client)?.unref?.();
}

function refSocket(client: pg.Client): void {
  socketOf(client)?.ref?.();
}

function socketOf(client: pg.Client): { unref?: () => void; ref?: () => void } | undefined {
  return (client as unknown as { connection?: { stream?: { unref?: () => void; ref?: () => void } } }).connection?.stream;
}
