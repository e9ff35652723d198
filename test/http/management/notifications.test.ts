import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag } from './support/management.js';

// One webhook receiver for the file; it answers with the status at the head of `statuses` (200 when empty).
const received: Array<{ path: string; body: Record<string, unknown> }> = [];
const statuses: number[] = [];
const server = createServer((req, res) => {
  let text = '';
  req.on('data', (chunk) => (text += chunk));
  req.on('end', () => {
    received.push({ path: req.url ?? '', body: JSON.parse(text) });
    res.statusCode = statuses.shift() ?? 200;
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

forEachAdapter(
  (harness) => {
    /** The flag `k` and the user `u1` it targets (a user must be stored before it can be targeted). */
    const setUp = async (h: Harness) => {
      await createFlag(h, { key: 'k' });
      const user = await h.request('PUT', `/apps/${h.appId}/envs/${h.envs.production.id}/users/u1`, { body: {} });
      expect(user.status).toBe(200);
    };
    const target = (h: Harness, body: Record<string, unknown>) =>
      h.request('PATCH', `/apps/${h.appId}/envs/${h.envs.production.id}/users/u1/flags`, {
        body: { updates: [{ flagKey: 'k', specificTargetValue: true }], ...body },
      });

    beforeEach(() => {
      received.length = 0;
      statuses.length = 0;
    });

    describe('targeting notifications (rows 9/11)', () => {
      it('omitted: the configured defaults receive the change after commit', async () => {
        const h = harness();
        await setUp(h);
        const res = await target(h, { changeDescription: 'Give u1 access' });
        expect(res.status).toBe(200);
        await settle();
        expect(received).toHaveLength(1);
        expect(received[0]!.path).toBe('/chat');
        expect(received[0]!.body).toMatchObject({
          destination: 'chat',
          app: { id: h.appId },
          environment: { id: h.envs.production.id },
          entity: { type: 'user', id: 'u1' },
          changes: [{ flagKey: 'k', specificTargetValue: true }],
          changeDescription: 'Give u1 access',
          flagStateVersion: res.body.flagStateVersion,
        });
      });

      it('[] sends none; an explicit list sends to each configured destination', async () => {
        const h = harness();
        await setUp(h);
        await target(h, { notifications: [] });
        await settle();
        expect(received).toHaveLength(0);
        await h.request('PATCH', `/apps/${h.appId}/envs/${h.envs.production.id}/users/u1/flags`, {
          body: { updates: [{ flagKey: 'k', specificTargetValue: null }], notifications: ['chat', 'issueTrackerComment'] },
        });
        await settle();
        expect(received.map((r) => r.path).sort()).toEqual(['/chat', '/issues']);
      });

      it('a failing destination never fails the mutation; a no-op notifies nobody', async () => {
        const h = harness();
        await setUp(h);
        statuses.push(500, 500, 500, 500);
        const res = await target(h, {});
        expect(res.status).toBe(200);
        expect(res.body.data[0].specificTargetValue).toBe(true);
        await settle();
        received.length = 0;
        statuses.length = 0;
        expect((await target(h, {})).status).toBe(200);
        await settle();
        expect(received.filter((r) => (r.body['changes'] as unknown[]).length)).toHaveLength(0);
      });
    });
  },
  { options: { notifications: { chat: `${url}/chat`, issueTrackerComment: `${url}/issues`, defaults: ['chat'] } } },
);
