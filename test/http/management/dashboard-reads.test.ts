import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlagFeedbackResponseSchema } from '../../../packages/core/src/dashboard/feedback-route.js';
import { FlagDetailsResponseSchema } from '../../../packages/core/src/dashboard/flag-details-route.js';
import { FlagStatusesResponseSchema } from '../../../packages/core/src/dashboard/flag-statuses-route.js';
import { expressFactory } from '../support/adapters.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createFlag, expectSchema } from './support/management.js';

const EVERYONE = { rules: [{ filter: { type: 'constant', value: true } }] };
const PRO = { rules: [{ filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } }] };

/** The dashboard's read-only extension routes: statuses of every flag per environment, and a flag's feedback. */
describe('dashboard read routes (extension)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(expressFactory);
  });
  afterAll(() => h?.close());

  it('GET /apps/{appId}/flag-statuses: off, targeted (rules or a specific target), everyone, archived is off', async () => {
    for (const key of ['none', 'all', 'some', 'direct', 'gone']) await createFlag(h, { key });
    const put = (key: string, envId: string, body: unknown) => h.request('PUT', `/apps/${h.appId}/flags/${key}/targeting/${envId}`, { body });
    const prod = h.envs.production.id;
    const dev = h.envs.development.id;
    expect((await put('all', prod, EVERYONE)).status).toBe(200);
    expect((await put('some', dev, PRO)).status).toBe(200);
    expect((await put('gone', prod, EVERYONE)).status).toBe(200);
    await h.request('PUT', `/apps/${h.appId}/envs/${dev}/users/u1`, { body: { attributes: {} } });
    const direct = await h.request('PATCH', `/apps/${h.appId}/envs/${dev}/users/u1/flags`, {
      body: { updates: [{ flagKey: 'direct', specificTargetValue: true }] },
    });
    expect(direct.status, direct.text).toBe(200);
    const flags = (await h.request('GET', `/apps/${h.appId}/flags`)).body.data as Array<{ id: string; key: string }>;
    await h.request('PATCH', `/apps/${h.appId}/flags/${flags.find((f) => f.key === 'gone')!.id}`, { body: { isArchived: true } });

    const res = await h.request('GET', `/apps/${h.appId}/flag-statuses`);
    expect(res.status).toBe(200);
    expectSchema(FlagStatusesResponseSchema, res.body);
    const byEnv = Object.fromEntries((res.body.data as Array<{ envId: string; flags: object }>).map((d) => [d.envId, d.flags]));
    expect(byEnv[prod]).toEqual({ none: 'off', all: 'everyone', some: 'off', direct: 'off', gone: 'off' });
    expect(byEnv[dev]).toEqual({ none: 'off', all: 'off', some: 'targeted', direct: 'targeted', gone: 'off' });
    expect((await h.request('GET', `/apps/${h.appId}/flag-statuses`, { key: null })).status).toBe(401);
  });

  it('GET /apps/{appId}/flags/{flagKey}/feedback: that flag only, newest first, with the mean score', async () => {
    await createFlag(h, { key: 'rated' });
    const send = (body: object) => h.request('POST', '/feedback', { key: h.envs.production.publishableKey, body });
    expect((await send({ userId: 'u1', key: 'rated', score: 2, comment: 'slow' })).status).toBe(200);
    expect((await send({ userId: 'u2', key: 'rated', score: 5 })).status).toBe(200);
    expect((await send({ userId: 'u3', key: 'none', score: 1 })).status).toBe(200);
    const res = await h.request('GET', `/apps/${h.appId}/flags/rated/feedback`);
    expect(res.status, res.text).toBe(200);
    expectSchema(FlagFeedbackResponseSchema, res.body);
    expect(res.body.data.map((d: { userId: string }) => d.userId).sort()).toEqual(['u1', 'u2']);
    expect(res.body.data.find((d: { userId: string }) => d.userId === 'u1')).toMatchObject({ score: 2, comment: 'slow' });
    expect(res.body).toMatchObject({ scoreCount: 2, scoreAverage: 3.5 });
    expect((await h.request('GET', `/apps/${h.appId}/flags/nope/feedback`)).status).toBe(404);
  });
});

describe('GET /apps/{appId}/flags/{flagKey}/details (extension)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(expressFactory);
  });
  afterAll(() => h?.close());

  it('answers the flag header with secret and the stale window; 404 for an unknown key', async () => {
    await createFlag(h, { key: 'hidden', secret: true });
    const res = await h.request('GET', `/apps/${h.appId}/flags/hidden/details`);
    expect(res.status, res.text).toBe(200);
    expectSchema(FlagDetailsResponseSchema, res.body);
    expect(res.body).toMatchObject({ flag: { key: 'hidden', archived: false }, secret: true, staleAfterDays: 30 });
    expect((await h.request('GET', `/apps/${h.appId}/flags/nope/details`)).status).toBe(404);
  });
});
