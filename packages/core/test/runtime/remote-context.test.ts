import { describe, expect, it } from 'vitest';
import { RemoteContextCache } from '../../src/runtime/context/remote-context.js';
import type { Storage } from '../../src/storage/port.js';
import type { EntityRecord } from '../../src/storage/records.js';

/** A store whose entity reads are counted and released by hand. */
function slowStore(rows: Record<string, Record<string, unknown>>) {
  const pending: Array<() => void> = [];
  let reads = 0;
  const storage = {
    entities: {
      get: (envId: string, type: string, id: string) => {
        reads++;
        const attributes = rows[`${type}:${id}`];
        return new Promise<EntityRecord | undefined>((resolve) =>
          pending.push(() =>
            resolve(attributes ? ({ envId, type, id, name: null, attributes: { ...attributes }, createdAt: '', updatedAt: '' } as EntityRecord) : undefined),
          ),
        );
      },
    },
  } as unknown as Storage;
  return { storage, release: () => pending.splice(0).forEach((f) => f()), reads: () => reads, rows };
}

describe('RemoteContextCache', () => {
  it('shares one store read between concurrent misses, then serves from memory', async () => {
    const store = slowStore({ 'user:u1': { plan: 'pro' } });
    const cache = new RemoteContextCache(store.storage);
    const a = cache.get('e', 'user', 'u1');
    const b = cache.get('e', 'user', 'u1');
    store.release();
    expect(await a).toEqual({ plan: 'pro' });
    expect(await b).toEqual({ plan: 'pro' });
    expect(await cache.get('e', 'user', 'u1')).toEqual({ plan: 'pro' });
    expect(store.reads()).toBe(1);
  });

  it('caches misses too (null), keyed by environment and type', async () => {
    const store = slowStore({});
    const cache = new RemoteContextCache(store.storage);
    const first = cache.get('e', 'company', 'c1');
    store.release();
    expect(await first).toBeNull();
    expect(await cache.get('e', 'company', 'c1')).toBeNull();
    const other = cache.get('e', 'user', 'c1');
    store.release();
    await other;
    expect(store.reads()).toBe(2);
  });

  it('an invalidation drops the entry and a read it overtook is not cached', async () => {
    const store = slowStore({ 'user:u1': { plan: 'free' } });
    const cache = new RemoteContextCache(store.storage);
    const stale = cache.get('e', 'user', 'u1');
    store.rows['user:u1'] = { plan: 'pro' };
    cache.invalidate('e', 'user', 'u1');
    store.release();
    expect(await stale).toEqual({ plan: 'free' });
    const fresh = cache.get('e', 'user', 'u1');
    store.release();
    expect(await fresh).toEqual({ plan: 'pro' });
    expect(store.reads()).toBe(2);
  });
});
