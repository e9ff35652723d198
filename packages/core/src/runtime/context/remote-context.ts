import { LRUCache } from 'lru-cache';
import type { Services } from '../../services.js';
import type { Storage } from '../../storage/port.js';
import type { EntityType } from '../../storage/records.js';
import type { Context } from '../../schemas/context.js';

/** Stored attributes of one entity, or `null` when the store has none (cached too, so misses stay cheap). */
type Attributes = Record<string, unknown> | null;

/** Entries per environment and entity type. */
const MAX_ENTRIES = 25_000;
/**
 * How old an entry may get before it is read again. Writes from this process invalidate at once; this bounds how
 * long a write from elsewhere (another replica, a management upsert) can go unseen. An entry past it is still
 * served while one read, started by the request that found it old, replaces it: entries age together (they were
 * read in the same burst of traffic), and a cache that dropped them made every request of the next burst wait for
 * the store, every TTL, which showed in the evaluate route's tail latency.
 */
const TTL_MS = 5_000;
/**
 * How long the refreshes of entries found past their TTL gather before one read replaces them all. A busy instance
 * finds a few old entries on every turn of the event loop (their TTLs end as their first requests were spread), and
 * refreshing each turn's few meant a query per turn: ~150 a second for 1,000 active users, each costing ~0.2 ms of
 * CPU and a thread-pool round trip on SQLite. Gathered, it is a few reads a second, whatever the number of users.
 * The old values answer meanwhile, so waiting costs no request anything: the staleness bound is TTL + window.
 */
const REFRESH_WINDOW_MS = 200;

/**
 * Longest an evaluation waits for stored attributes before it answers from the sent context alone. A store that
 * hangs rather than fails (a database cut off with its sockets open) must not hold flags back: evaluation keeps
 * serving, as it does when the store fails outright. The read goes on, and fills the cache if it ends.
 */
export const STORED_ATTRIBUTES_WAIT_MS = 2_000;

class StoredAttributesTimeout extends Error {
  override readonly name = 'StoredAttributesTimeout';
}

/** `task`, or a rejection after `ms`; the timer does not keep the process alive. */
function within<T>(task: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoredAttributesTimeout(`no answer from the store within ${ms} ms`)), ms);
    timer.unref?.();
  });
  return Promise.race([task, timeout]).finally(() => clearTimeout(timer));
}

/** Entity ids of one environment and type to read together with one `getMany`. */
interface Reads {
  envId: string;
  type: EntityType;
  /** Entity id → its cache key and the generation it was asked at. */
  ids: Map<string, { key: string; startedAt: number }>;
}

/** Misses of one environment and entity type, read together; their requests wait for `done`. */
interface Batch extends Reads {
  done: Promise<Map<string, Attributes>>;
  resolve: (values: Map<string, Attributes>) => void;
  reject: (error: unknown) => void;
}

/**
 * The LRU in front of the entity store for remote context (architecture.md, "Remote context"). Concurrent misses
 * for one entity share a single read; a read that an invalidation overtook is handed to its waiters but not cached.
 *
 * Misses are read in batches: those of one turn of the event loop, per environment and type, become one
 * `getMany`. Entries expire together (the TTL starts at the same burst of traffic), so without batching a busy
 * instance paid one query per user every few seconds, measured ~9 % of the evaluate route's CPU on SQLite.
 */
export class RemoteContextCache {
  /**
   * One LRU per environment and entity type, keyed by the entity id as sent: a lookup then builds no composite key
   * (concatenating and hashing one cost ~0.3 µs, twice per evaluate request).
   */
  private readonly caches = new Map<string, Record<EntityType, Entries>>();
  private readonly inflight = new Map<string, Promise<Attributes>>();
  private readonly generation = new Map<string, number>();
  private readonly batches = new Map<string, Batch>();
  /** Refreshes gathering for their window, by environment and type, with the timer that will read them. */
  private readonly refreshes = new Map<string, { reads: Reads; timer: ReturnType<typeof setTimeout> }>();
  private closed = false;

  constructor(
    private readonly storage: Storage,
    private readonly now: () => number = Date.now,
    private readonly refreshWindowMs = REFRESH_WINDOW_MS,
  ) {}

  /**
   * The cached attributes (`null`: known to have none), or undefined when they must be read. An entry older than
   * the TTL is returned all the same, and read again in the background.
   */
  peek(envId: string, type: EntityType, id: string): Attributes | undefined {
    const entry = this.caches.get(envId)?.[type].get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) this.refresh(envId, type, id, entry);
    return entry.value;
  }

  async get(envId: string, type: EntityType, id: string): Promise<Attributes> {
    const cached = this.peek(envId, type, id);
    if (cached !== undefined) return cached;
    return this.load(envId, type, id);
  }

  private refresh(envId: string, type: EntityType, id: string, entry: Entry): void {
    // Only the first request to find it old asks for the read; if the read fails (store away), the old value serves
    // for another TTL before the next attempt rather than every request retrying.
    entry.expiresAt = this.now() + TTL_MS;
    if (this.closed) return;
    const batchKey = readsKey(envId, type);
    let pending = this.refreshes.get(batchKey);
    if (!pending) {
      const reads: Reads = { envId, type, ids: new Map() };
      const timer = setTimeout(() => {
        this.refreshes.delete(batchKey);
        this.readInto(reads).catch(() => undefined);
      }, this.refreshWindowMs);
      // A pending refresh must not keep the host's process alive; `close()` drops it.
      timer.unref?.();
      this.refreshes.set(batchKey, (pending = { reads, timer }));
    }
    this.enlist(pending.reads, id, cacheKey(envId, type, id));
  }

  /** Adds an id to a read, with the generation it is asked at (an invalidation in between keeps its result out). */
  private enlist(reads: Reads, id: string, key: string): void {
    reads.ids.set(id, { key, startedAt: this.generation.get(key) ?? 0 });
  }

  /** Drops pending refreshes and starts no more: the store is closing. Misses are still read (and fail). */
  close(): void {
    this.closed = true;
    for (const { timer } of this.refreshes.values()) clearTimeout(timer);
    this.refreshes.clear();
  }

  private load(envId: string, type: EntityType, id: string): Promise<Attributes> {
    const key = cacheKey(envId, type, id);
    const running = this.inflight.get(key);
    if (running) return running;
    const batch = this.batchFor(envId, type);
    this.enlist(batch, id, key);
    const task = batch.done
      .then((values) => values.get(id) ?? null)
      .finally(() => {
        if (this.inflight.get(key) === task) this.inflight.delete(key);
      });
    this.inflight.set(key, task);
    return task;
  }

  private batchFor(envId: string, type: EntityType): Batch {
    const batchKey = readsKey(envId, type);
    let batch = this.batches.get(batchKey);
    if (!batch) {
      let resolve!: Batch['resolve'];
      let reject!: Batch['reject'];
      const done = new Promise<Map<string, Attributes>>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      batch = { envId, type, ids: new Map(), done, resolve, reject };
      this.batches.set(batchKey, batch);
      // setImmediate rather than a microtask: the requests that arrived in the same poll of the event loop are
      // parsed by then, and their misses join this read.
      setImmediate(() => void this.read(batchKey, batch!));
    }
    return batch;
  }

  private async read(batchKey: string, batch: Batch): Promise<void> {
    this.batches.delete(batchKey);
    try {
      batch.resolve(await this.readInto(batch));
    } catch (error) {
      batch.reject(error);
    }
  }

  /** Reads the ids and caches what was read, except for entries an invalidation overtook. */
  private async readInto(reads: Reads): Promise<Map<string, Attributes>> {
    const rows = await this.storage.entities.getMany(reads.envId, reads.type, [...reads.ids.keys()]);
    const values = new Map<string, Attributes>();
    for (const row of rows) values.set(row.id, row.attributes);
    const entries = this.entries(reads.envId, reads.type);
    const expiresAt = this.now() + TTL_MS;
    for (const [id, { key, startedAt }] of reads.ids) {
      if ((this.generation.get(key) ?? 0) === startedAt) entries.set(id, { value: values.get(id) ?? null, expiresAt });
    }
    return values;
  }

  invalidate(envId: string, type: EntityType, id: string): void {
    this.caches.get(envId)?.[type].delete(id);
    const key = cacheKey(envId, type, id);
    this.inflight.delete(key);
    this.generation.set(key, (this.generation.get(key) ?? 0) + 1);
    // Generations only matter while a read is in flight; keep the map from growing with every entity ever written.
    if (this.generation.size > MAX_ENTRIES) this.generation.clear();
  }

  private entries(envId: string, type: EntityType): Entries {
    let byType = this.caches.get(envId);
    if (!byType) this.caches.set(envId, (byType = { user: newEntries(), company: newEntries() }));
    return byType[type];
  }
}

interface Entry {
  value: Attributes;
  /** When it is to be read again (`now()` time); until the read lands it is still served. */
  expiresAt: number;
}
type Entries = LRUCache<string, Entry>;
const newEntries = (): Entries => new LRUCache({ max: MAX_ENTRIES });

const cacheKey = (envId: string, type: EntityType, id: string) => `${envId}\u0000${type}\u0000${id}`;
/** The key of the reads (misses or refreshes) of one environment and entity type. */
const readsKey = (envId: string, type: EntityType) => `${envId}\u0000${type}`;

// One cache per store: `Services` may be copied per mount (adapter options), the store is the instance's identity.
const caches = new WeakMap<Storage, RemoteContextCache>();

/** Stops the store's cache from starting reads (pending refreshes are dropped): called when the instance closes. */
export function closeRemoteContextCache(storage: Storage): void {
  caches.get(storage)?.close();
}

export function remoteContextCache(services: Services): RemoteContextCache {
  let cache = caches.get(services.storage);
  if (!cache) {
    cache = new RemoteContextCache(services.storage);
    caches.set(services.storage, cache);
  }
  return cache;
}

/** Called after this process commits entity writes, so the next evaluation sees them. */
export function invalidateRemoteContext(
  services: Services,
  entities: ReadonlyArray<{ envId: string; type: EntityType; id: string }>,
): void {
  const cache = remoteContextCache(services);
  for (const e of entities) cache.invalidate(e.envId, e.type, e.id);
}

const idText = (id: unknown): string | undefined =>
  typeof id === 'string' ? (id.length ? id : undefined) : typeof id === 'number' ? String(id) : undefined;

export interface RemoteContext {
  context: Context;
  /** True when a stored user or company was found. */
  used: boolean;
}

/**
 * `withRemoteContext` without waiting: the merged context when the attributes it needs are cached (or none are
 * needed), else undefined.
 */
export function cachedRemoteContext(services: Services, envId: string, context: Context): RemoteContext | undefined {
  const userId = idText(context.user?.id);
  const companyId = idText(context.company?.id);
  if (userId === undefined && companyId === undefined) return { context, used: false };
  const cache = remoteContextCache(services);
  const user = userId === undefined ? null : cache.peek(envId, 'user', userId);
  if (user === undefined) return undefined;
  const company = companyId === undefined ? null : cache.peek(envId, 'company', companyId);
  if (company === undefined) return undefined;
  return merged(context, user, company);
}

/** Merges stored user and company attributes under the sent ones (sent values win, member by member). */
export async function withRemoteContext(services: Services, envId: string, context: Context): Promise<RemoteContext> {
  const cache = remoteContextCache(services);
  const userId = idText(context.user?.id);
  const companyId = idText(context.company?.id);
  if (userId === undefined && companyId === undefined) return { context, used: false };
  let user: Attributes;
  let company: Attributes;
  try {
    const reads = Promise.all([
      userId === undefined ? null : cache.get(envId, 'user', userId),
      companyId === undefined ? null : cache.get(envId, 'company', companyId),
    ]);
    [user, company] = await within(reads, STORED_ATTRIBUTES_WAIT_MS);
  } catch (error) {
    // Flags keep being served when the store is away: evaluate with what was sent (remoteContextUsed false).
    services.logger.warn('flagmount: could not read stored attributes, evaluating the sent context only', { envId, error });
    return { context, used: false };
  }
  return merged(context, user, company);
}

function merged(context: Context, user: Attributes, company: Attributes): RemoteContext {
  if (!user && !company) return { context, used: false };
  const out: Context = { ...context };
  if (user) out.user = { ...(user as Context['user']), ...context.user };
  if (company) out.company = { ...(company as Context['company']), ...context.company };
  return { context: out, used: true };
}
