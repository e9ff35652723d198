import { describe, expect, it } from 'vitest';
import { FlagChecksResponseSchema } from '../../../packages/core/src/dashboard/checks-route.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectSchema } from './support/management.js';

const DAY = 86_400_000;
/** Checks are stamped on arrival: the service runs on a clock the test moves from one day to the next. */
let clock = 0;
const START = Date.parse('2026-04-10T10:00:00.000Z');

type Day = { day: string; checkCount: number; exposureCount: number; trackCount: number };

async function activity(h: Harness, envId: string, days = 3): Promise<Day[]> {
  const res = await h.request('GET', `/apps/${h.appId}/flags/checkout/checks`, { query: { envId, days } });
  expect(res.status, res.text).toBe(200);
  expectSchema(FlagChecksResponseSchema, res.body);
  return res.body.data[0].days;
}

forEachAdapter(
  (harness) => {
    describe('GET /apps/{appId}/flags/{flagKey}/checks: exposures per day (issue 37)', () => {
      it('counts a check with evalResult true as an exposure, per UTC day, from /features/events, /bulk and OFREP', async () => {
        const h = harness();
        clock = START;
        await createFlag(h, { key: 'checkout' });
        const dev = h.envs.development;
        const pro = { rules: [{ filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } }] };
        expect((await h.request('PUT', `/apps/${h.appId}/flags/checkout/targeting/${dev.id}`, { body: pro })).status).toBe(200);
        const event = (evalResult: unknown, userId: string, action = 'check') => ({ action, key: 'checkout', evalContext: { user: { id: userId } }, evalResult });
        const send = async (path: string, body: unknown) => {
          const res = await h.request('POST', path, { key: dev.secretKey, body });
          expect(res.status, res.text).toBe(200);
        };

        // Day 1: 3 exposures among 6 checks (a config check's object result is not one), 1 track.
        await send('/features/events', event(true, 'u1'));
        await send('/features/events', event(true, 'u2'));
        await send('/features/events', event(false, 'u3'));
        await send('/features/events', event({ key: 'blue', payload: 1 }, 'u1', 'check-config'));
        await send('/bulk', [
          { type: 'feature-flag-event', ...event(true, 'u4', 'check-is-enabled') },
          { type: 'feature-flag-event', ...event(false, 'u5', 'evaluate') },
          { type: 'event', event: 'checkout', userId: 'u1' },
        ]);

        // Day 2: OFREP answers are checks too (true for a pro user: an exposure), and one more false check.
        clock += DAY;
        const ofrep = (context: unknown) => h.request('POST', '/ofrep/v1/evaluate/flags/checkout', { key: dev.secretKey, body: { context } });
        expect((await ofrep({ targetingKey: 'u6', plan: 'pro' })).body).toMatchObject({ value: true });
        expect((await ofrep({ targetingKey: 'u7', plan: 'free' })).body).toMatchObject({ value: false });
        await send('/features/events', event(false, 'u8'));

        const day = (offset: number) => new Date(START + offset * DAY).toISOString().slice(0, 10);
        const expected: Day[] = [
          { day: day(-1), checkCount: 0, exposureCount: 0, trackCount: 0 },
          { day: day(0), checkCount: 6, exposureCount: 3, trackCount: 1 },
          { day: day(1), checkCount: 3, exposureCount: 1, trackCount: 0 },
        ];
        // OFREP does not hold its answer for the commit of its checks.
        await expect.poll(() => activity(h, dev.id), { timeout: 5000 }).toEqual(expected);
        // Another environment saw none of it.
        expect((await activity(h, h.envs.production.id)).every((d) => d.checkCount === 0 && d.exposureCount === 0)).toBe(true);
        // Every environment when envId is left out, each with its exposures.
        const all = await h.request('GET', `/apps/${h.appId}/flags/checkout/checks`, { query: { days: 2 } });
        const byEnv = Object.fromEntries(all.body.data.map((e: { envId: string; days: Day[] }) => [e.envId, e.days.map((d) => d.exposureCount)]));
        expect(byEnv).toEqual({ [dev.id]: [3, 1], [h.envs.production.id]: [0, 0] });
      });
    });
  },
  { options: { now: () => new Date(clock) } },
);
