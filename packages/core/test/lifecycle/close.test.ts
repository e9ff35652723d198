import { createFlagmount, StorageUnavailableError, type CoreRequest, type CoreResponse, type Flagmount, type Storage } from '@flagmount/core';
import { memoryStorage } from '@flagmount/storage-memory';
import { describe, expect, it } from 'vitest';
import { seedFlags } from '../../../../test/http/runtime/support/seed.js';

const KEY = 'fmk_closetest0000000000000000000000000000';

function request(method: string, path: string, body?: unknown, query: Array<[string, string]> = []): CoreRequest {
  return {
    method,
    path,
    query,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? { kind: 'none' } : { kind: 'raw', text: JSON.stringify(body), contentType: 'application/json' },
  };
}

const json = (response: CoreResponse) => JSON.parse(String(response.body)) as Record<string, any>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The instance's view of a memory store: closing it refuses every later call as a closed database does, while the
 * store itself stays readable by the test. Each transaction starts `delayMs` late, as on a database across a
 * network, so that close() comes while writes are under way.
 */
function closableView(storage: Storage, delayMs: number): Storage {
  let closed = false;
  const refused = () => Promise.reject(new StorageUnavailableError('the store is closed'));
  const guard = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, prop) {
        const value = Reflect.get(object, prop, object) as unknown;
        if (typeof value === 'function') return closed ? refused : (value as (...args: unknown[]) => unknown).bind(object);
        return value !== null && typeof value === 'object' ? guard(value) : value;
      },
    });
  const view = guard(storage);
  return Object.assign(Object.create(view) as Storage, {
    close: async () => void (closed = true),
    transaction: async <T>(fn: (tx: never) => Promise<T>): Promise<T> => {
      await sleep(delayMs);
      return view.transaction(fn as never);
    },
  });
}

async function instance(options: Partial<Parameters<typeof createFlagmount>[0]> = {}): Promise<{ fm: Flagmount; storage: Storage }> {
  const storage = memoryStorage();
  const fm = await createFlagmount({ storage: closableView(storage, 20), bootstrap: { managementKey: KEY }, ...options });
  return { fm, storage };
}

describe('close()', () => {
  it('lets answers under way finish on an open store: a write it acknowledges is a write that happened', async () => {
    const { fm, storage } = await instance();
    const appId = fm.bootstrap!.appId;
    const answers = Array.from({ length: 20 }, (_, i) => fm.handler(request('POST', `/apps/${appId}/flags`, { key: `f${i}`, name: `F${i}` })));
    await fm.close();
    const statuses = (await Promise.all(answers)).map((r) => r.status);
    // Before, the routes' reads after the commit met a closed store: committed creates answered 503.
    expect(statuses).toEqual(statuses.map(() => 200));
    expect((await storage.flags.listByApp(appId)).map((f) => f.key).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `f${i}`).sort(),
    );
  });

  it('answers a request parked on waitForVersion at once, with what there is', async () => {
    const { fm } = await instance();
    const env = fm.bootstrap!.environments[0]!;
    const parked = fm.handler({ ...request('GET', '/features', undefined, [['waitForVersion', '99']]), headers: { authorization: `Bearer ${env.secretKey}` } });
    const started = Date.now();
    await fm.close();
    const answer = await parked;
    expect(answer.status).toBe(200);
    expect(json(answer)['flagStateVersion']).toBe(0);
    expect(Date.now() - started).toBeLessThan(1000);
    // And one that arrives after close() does not wait either.
    const late = await fm.handler({ ...request('GET', '/features', undefined, [['waitForVersion', '99']]), headers: { authorization: `Bearer ${env.secretKey}` } });
    expect(late.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("stores the in-process client's buffered checks at once, not after the ingestion interval", async () => {
    const { fm, storage } = await instance({ ingestion: { flushIntervalMs: 10_000 } });
    const devId = fm.bootstrap!.environments.find((e) => e.name === 'Development')!.id;
    await seedFlags(fm, fm.bootstrap!.appId, [{ key: 'f1' }]);
    fm.client.isEnabled('f1', { user: { id: 'u1' } });
    const started = Date.now();
    await fm.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await storage.events.listChecks(devId, 10)).map((c) => c.flagKey)).toEqual(['f1']);
  });
});
