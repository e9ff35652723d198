import { StorageUnavailableError } from '@flagmount/core';
import { afterEach, describe, expect, it } from 'vitest';
import { selectedAdapters } from '../http/support/adapters.js';
import { failingStorage, SDK_KEYS, startSafetyHost, type FailingStorage, type SafetyHost } from './support.js';

const secret = SDK_KEYS.development.secretKey;

async function errorCode(res: Response): Promise<string | undefined> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as { error?: { code?: string; message?: string } };
  expect(typeof body.error?.message).toBe('string');
  return body.error?.code;
}

for (const adapter of selectedAdapters()) {
  describe(`${adapter.name}: a failing store never takes the host down`, () => {
    let current: SafetyHost | undefined;
    let store: FailingStorage;
    afterEach(async () => {
      store.fail(undefined);
      await current?.close();
      current = undefined;
    });

    async function start() {
      store = failingStorage();
      current = await startSafetyHost(adapter, { storage: store.storage });
      return current;
    }

    it('answers 503 with the error body while the store is unavailable, and recovers', async () => {
      const app = await start();
      store.fail(new StorageUnavailableError('connection refused'));
      const res = await app.get('/flags/apps');
      expect(res.status).toBe(503);
      expect(await errorCode(res)).toBe('not_available');
      expect((await app.get('/host/ping')).status).toBe(200);
      expect(app.hostErrors).toEqual([]);

      store.fail(undefined);
      expect((await app.get('/flags/apps')).status).toBe(200);
    });

    it('answers 500 with the error body for an unexpected store error, logged through the injected logger', async () => {
      const app = await start();
      store.fail(new Error('disk on fire'));
      const res = await app.get('/flags/apps');
      expect(res.status).toBe(500);
      expect(await errorCode(res)).toBe('unknown_error');
      expect(app.logged.some((entry) => entry.level === 'error')).toBe(true);
      expect(await (await app.get('/host/ping')).json()).toEqual({ host: true });
      expect(app.hostErrors).toEqual([]);
    });

    it('keeps serving flags from the last snapshot and refuses writes with 503', async () => {
      const app = await start();
      store.fail(new StorageUnavailableError('connection refused'));
      const features = await app.get('/flags/features', secret);
      expect(features.status).toBe(200);
      expect(await features.json()).toMatchObject({ success: true });
      const write = await app.get('/flags/event', secret, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: 'u1', event: 'clicked' }),
      });
      expect(write.status).toBe(503);
      expect(await errorCode(write)).toBe('not_available');
      expect(app.hostErrors).toEqual([]);
    });
  });
}
