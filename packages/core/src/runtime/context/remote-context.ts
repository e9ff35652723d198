import { LRUCache } from 'lru-cache';
import type { Services } from '../../services.js';
import type { Storage } from '../../storage/port.js';
import type { EntityType } from '../../storage/records.js';
import type { Context } from '../../schemas/context.js';

/** Stored attributes of one entity, or `null` when the store has none (cached too, so misses stay cheap). */
type Attributes = Record<string, unknown> | null;

const MAX_ENTRIES = 50_000;
/**
 * Writes from this process invalidate at once; the TTL bounds how long a write from elsewhere (another replica,
 * a management upsert) can go unseen.
 */
const TTL_MS = 5_000;

/**
 * The LRU in front of the entity store for remote context (architecture.md, "Remote context"). Concurrent misses
 * for one entity share a single read; a read that an invalidation overtook is handed to its waiters but not cached.
 */
export class RemoteContextCache {
  private readonly cache = new LRUCache<string, { value: Attributes }>({ max: MAX_ENTRIES, ttl: TTL_MS });
  private readonly inflight = new Map<string, Promise<Attributes>>();
  private readonly generation = new Map<string, number>();

  constructor(private readonly storage: Storage) {}

  async get(envId: string, type: EntityType, id: string): Promise<Attributes> {
    const key = cacheKey(envId, type, id);
    const hit = this.cache.get(key);
    if (hit) return hit.value;
    const running = this.inflight.get(key);
    if (running) return running;
    const startedAt = this.generation.get(key) ?? 0;
    const task = this.storage.entities
      .get(envId, type, id)
      .then((row) => {
        const value = row ? row.attributes : null;
        if ((this.generation.get(key) ?? 0) === startedAt) this.cache.set(key, { value });
        return value;
      })
      .finally(() => {
        if (this.inflight.get(key) === task) this.inflight.delete(key);
      });
    this.inflight.set(key, task);
    return task;
  }

  invalidate(envId: string, type: EntityType, id: string): void {
    const key = cacheKey(envId, type, id);
    this.cache.delete(key);
    this.inflight.delete(key);
    this.generation.set(key, (this.generation.get(key) ?? 0) + 1);
    // Generations only matter while a read is in flight; keep the map from growing with every entity ever written.
    if (this.generation.size > MAX_ENTRIES) this.generation.clear();
  }
}

const cacheKey = (envId: string, type: EntityType, id: string) => `${envId}\u0000${type}\u0000${id}`;

// One cache per store: `Services` may be copied per mount (adapter options), the store is the instance's identity.
const caches = new WeakMap<Storage, RemoteContextCache>();

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

/**
 * Merges stored user and company attributes under the sent ones (sent values win, member by member).
 * `used` is true when a stored user or company was found.
 */
export async function withRemoteContext(
  services: Services,
  envId: string,
  context: Context,
): Promise<{ context: Context; used: boolean }> {
  const cache = remoteContextCache(services);
  const userId = idText(context.user?.id);
  const companyId = idText(context.company?.id);
  if (userId === undefined && companyId === undefined) return { context, used: false };
  let user: Attributes;
  let company: Attributes;
  try {
    [user, company] = await Promise.all([
      userId === undefined ? null : cache.get(envId, 'user', userId),
      companyId === undefined ? null : cache.get(envId, 'company', companyId),
    ]);
  } catch (error) {
    // Flags keep being served when the store is away: evaluate with what was sent (remoteContextUsed false).
    services.logger.warn('flagmount: could not read stored attributes, evaluating the sent context only', { envId, error });
    return { context, used: false };
  }
  if (!user && !company) return { context, used: false };
  const merged: Context = { ...context };
  if (user) merged.user = { ...(user as Context['user']), ...context.user };
  if (company) merged.company = { ...(company as Context['company']), ...context.company };
  return { context: merged, used: true };
}
