import { describe, expect, it, vi } from 'vitest';
import {
  cachedRemoteContext,
  RemoteContextCache,
  STORED_ATTRIBUTES_WAIT_MS,
  withRemoteContext,
} from '../../src/runtime/context/remote-context.js';
import type { Services } from '../../src/services.js';
import type { Storage } from '../../src/storage/port.js';
import type { EntityRecord } from '../../src/storage/records.js';

/** A store whose entity reads (one per getMany) are counted and released by hand. */
function slowStore(rows: Record<string, Record<string, unknown>>) {
  const pending: Array<() => void> = [];
  let reads = 0;
  const storage = {
    entities: {
      getMany: (envId: string, type: string, ids: string[]) => {
        reads++;
        const found = ids.flatMap((id) => {
          const attributes = rows[`${type}:${id}`];
          return attributes ? [{ envId, type, id, name: null, attributes: { ...attributes }, createdAt: '', updatedAt: '' } as EntityRecord] : [];
        });
        return new Promise<EntityRecord[]>((resolve) => pending.push(() => resolve(found)));
      },
    },
  } as unknown as Storage;
    // Reads start on the next turn of the event loop (misses are batched): wait for it, then answer them.
  const release = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    pending.splice(0).forEach((f) => f());
  };
  return { storage, release, reads: () => reads, rows };
}

/** Lets `n` turns of the event loop pass: a background read starts on the next one and lands on a later one. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Lets a refresh window of `ms` end (the tests use short windows), and its read start. */
async function windowEnds(ms = 0): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms + 5));
  await turns(1);
}

describe('RemoteContextCache', () => {
  it('shares one store read between concurrent misses, then serves from memory', async () => {
    const store = slowStore({ 'user:u1': { plan: 'pro' } });
    const cache = new RemoteContextCache(store.storage);
    const a = cache.get('e', 'user', 'u1');
    const b = cache.get('e', 'user', 'u1');
    await store.release();
    expect(await a).toEqual({ plan: 'pro' });
    expect(await b).toEqual({ plan: 'pro' });
    expect(await cache.get('e', 'user', 'u1')).toEqual({ plan: 'pro' });
    expect(store.reads()).toBe(1);
  });

  it('caches misses too (null), keyed by environment and type', async () => {
    const store = slowStore({});
    const cache = new RemoteContextCache(store.storage);
    const first = cache.get('e', 'company', 'c1');
    await store.release();
    expect(await first).toBeNull();
    expect(await cache.get('e', 'company', 'c1')).toBeNull();
    const other = cache.get('e', 'user', 'c1');
    await store.release();
    await other;
    expect(store.reads()).toBe(2);
  });

  it('an invalidation drops the entry and a read it overtook is not cached', async () => {
    const store = slowStore({ 'user:u1': { plan: 'free' } });
    const cache = new RemoteContextCache(store.storage);
    const stale = cache.get('e', 'user', 'u1');
    // The read starts (and sees 'free'), then a write lands and invalidates while it is still in flight.
    await new Promise((resolve) => setImmediate(resolve));
    store.rows['user:u1'] = { plan: 'pro' };
    cache.invalidate('e', 'user', 'u1');
    await store.release();
    expect(await stale).toEqual({ plan: 'free' });
    const fresh = cache.get('e', 'user', 'u1');
    await store.release();
    expect(await fresh).toEqual({ plan: 'pro' });
    expect(store.reads()).toBe(2);
  });

  it('reads the misses of one turn of the event loop with one getMany per environment and type', async () => {
    const store = slowStore({ 'user:u1': { plan: 'pro' }, 'user:u3': { plan: 'free' }, 'company:c1': { tier: 2 } });
    const cache = new RemoteContextCache(store.storage);
    const users = ['u1', 'u2', 'u3', 'u1'].map((id) => cache.get('e', 'user', id));
    const company = cache.get('e', 'company', 'c1');
    const otherEnv = cache.get('f', 'user', 'u1');
    await store.release();
    expect(await Promise.all(users)).toEqual([{ plan: 'pro' }, null, { plan: 'free' }, { plan: 'pro' }]);
    expect(await company).toEqual({ tier: 2 });
    expect(await otherEnv).toEqual({ plan: 'pro' });
    expect(store.reads()).toBe(3);
    expect(await cache.get('e', 'user', 'u2')).toBeNull();
    expect(store.reads()).toBe(3);
  });

  it('serves an entry past its TTL at once while one background read replaces it', async () => {
    const store = slowStore({ 'user:u1': { plan: 'pro' } });
    let now = 0;
    const cache = new RemoteContextCache(store.storage, () => now, 0);
    const first = cache.get('e', 'user', 'u1');
    await store.release();
    expect(await first).toEqual({ plan: 'pro' });
    store.rows['user:u1'] = { plan: 'enterprise' };
    now = 4_999;
    expect(cache.peek('e', 'user', 'u1')).toEqual({ plan: 'pro' });
    await turns(1);
    expect(store.reads()).toBe(1);
    // Past the TTL: the old value still answers at once, and only the first request to see it old starts a read.
    now = 5_000;
    expect(cache.peek('e', 'user', 'u1')).toEqual({ plan: 'pro' });
    expect(cache.peek('e', 'user', 'u1')).toEqual({ plan: 'pro' });
    expect(await cache.get('e', 'user', 'u1')).toEqual({ plan: 'pro' });
    await windowEnds();
    await store.release();
    await turns(1);
    expect(cache.peek('e', 'user', 'u1')).toEqual({ plan: 'enterprise' });
    expect(store.reads()).toBe(2);
  });

  it('keeps serving the old value when the background read fails, and tries again a TTL later', async () => {
    let calls = 0;
    let failing = false;
    const storage = {
      entities: {
        getMany: async (envId: string, type: string, ids: string[]) => {
          calls++;
          if (failing) throw new Error('store away');
          return ids.map((id) => ({ envId, type, id, name: null, attributes: { n: calls }, createdAt: '', updatedAt: '' }));
        },
      },
    } as unknown as Storage;
    let now = 0;
    const cache = new RemoteContextCache(storage, () => now, 0);
    expect(await cache.get('e', 'user', 'u1')).toEqual({ n: 1 });
    failing = true;
    now = 5_000;
    expect(cache.peek('e', 'user', 'u1')).toEqual({ n: 1 });
    await windowEnds();
    expect(calls).toBe(2);
    now = 9_999;
    expect(cache.peek('e', 'user', 'u1')).toEqual({ n: 1 });
    await windowEnds();
    expect(calls).toBe(2);
    failing = false;
    now = 10_000;
    expect(cache.peek('e', 'user', 'u1')).toEqual({ n: 1 });
    await windowEnds();
    expect(calls).toBe(3);
    expect(cache.peek('e', 'user', 'u1')).toEqual({ n: 3 });
  });

  it('gathers the refreshes of a window into one read per environment and type, and starts none once closed', async () => {
    const rows = Object.fromEntries(['u1', 'u2', 'u3'].map((id) => [`user:${id}`, { v: 1 }]));
    const store = slowStore(rows);
    let now = 0;
    const cache = new RemoteContextCache(store.storage, () => now, 30);
    const first = Promise.all(['u1', 'u2', 'u3'].map((id) => cache.get('e', 'user', id)));
    await store.release();
    await first;
    expect(store.reads()).toBe(1);
    for (const id of ['u1', 'u2', 'u3']) store.rows[`user:${id}`] = { v: 2 };
    // Past the TTL, found old on different turns of the event loop within one window: the old values answer.
    now = 5_000;
    expect(cache.peek('e', 'user', 'u1')).toEqual({ v: 1 });
    await turns(2);
    expect(cache.peek('e', 'user', 'u2')).toEqual({ v: 1 });
    await turns(2);
    expect(cache.peek('e', 'user', 'u3')).toEqual({ v: 1 });
    expect(store.reads()).toBe(1);
    await windowEnds(30);
    await store.release();
    await turns(1);
    expect(store.reads()).toBe(2);
    expect(['u1', 'u2', 'u3'].map((id) => cache.peek('e', 'user', id))).toEqual([{ v: 2 }, { v: 2 }, { v: 2 }]);
    // Old again, then closed before the window ends: no read is started (the store may be closed by then).
    now = 10_000;
    expect(cache.peek('e', 'user', 'u1')).toEqual({ v: 2 });
    cache.close();
    now = 10_001;
    expect(cache.peek('e', 'user', 'u2')).toEqual({ v: 2 });
    await windowEnds(30);
    expect(store.reads()).toBe(2);
  });

  it('a failed read rejects every waiter of its batch and caches nothing', async () => {
    let calls = 0;
    const storage = {
      entities: {
        getMany: async () => {
          if (++calls === 1) throw new Error('store away');
          return [];
        },
      },
    } as unknown as Storage;
    const cache = new RemoteContextCache(storage);
    const results = await Promise.allSettled([cache.get('e', 'user', 'a'), cache.get('e', 'user', 'b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await cache.get('e', 'user', 'a')).toBeNull();
    expect(calls).toBe(2);
  });
});

describe('cachedRemoteContext', () => {
  it('answers without waiting only once every attribute it needs is cached, and merges as withRemoteContext does', async () => {
    const store = slowStore({ 'user:u1': { plan: 'pro', country: 'de' }, 'company:c1': { tier: 'growth' } });
    const services = { storage: store.storage, logger: { warn: () => {} } } as unknown as Services;
    const sent = { user: { id: 'u1', country: 'fr' }, company: { id: 'c1' } };
    expect(cachedRemoteContext(services, 'e', { other: { x: 1 } })).toEqual({ context: { other: { x: 1 } }, used: false });
    expect(cachedRemoteContext(services, 'e', sent)).toBeUndefined();
    const read = withRemoteContext(services, 'e', sent);
    await store.release();
    const waited = await read;
    expect(waited).toEqual({ context: { user: { id: 'u1', plan: 'pro', country: 'fr' }, company: { id: 'c1', tier: 'growth' } }, used: true });
    expect(cachedRemoteContext(services, 'e', sent)).toEqual(waited);
    // The user is cached, the company of this context is not: it must wait.
    expect(cachedRemoteContext(services, 'e', { user: { id: 'u1' }, company: { id: 'c2' } })).toBeUndefined();
    expect(store.reads()).toBe(2);
  });
});

describe('withRemoteContext', () => {
  it('answers from the sent context when the store does not answer in time, and caches the read once it lands', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const store = slowStore({ 'user:u1': { plan: 'pro' } });
      const warnings: unknown[] = [];
      const services = { storage: store.storage, logger: { warn: (...args: unknown[]) => warnings.push(args) } } as unknown as Services;
      const sent = { user: { id: 'u1' } };
      const answer = withRemoteContext(services, 'e', sent);
      await turns(1);
      await vi.advanceTimersByTimeAsync(STORED_ATTRIBUTES_WAIT_MS);
      expect(await answer).toEqual({ context: sent, used: false });
      expect(warnings).toHaveLength(1);
      await store.release();
      await turns(2);
      expect(cachedRemoteContext(services, 'e', sent)).toEqual({ context: { user: { id: 'u1', plan: 'pro' } }, used: true });
    } finally {
      vi.useRealTimers();
    }
  });
});
