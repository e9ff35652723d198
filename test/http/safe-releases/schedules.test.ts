import { sqliteStorage } from '@flagmount/storage-sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ListSchedulesResponseSchema, ScheduleResponseSchema } from '../../../packages/core/src/schemas/schedule.js';
import { expressFactory } from '../support/adapters.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, versions } from '../management/support/management.js';

const PRO = { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } as const;
const ON = { type: 'constant', value: true } as const;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(25);
  }
}

/** The scheduler is adapter-independent: one host framework is enough here. */
describe('scheduled targeting changes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness(expressFactory);
    await createFlag(h, { key: 'k' });
  });
  afterEach(() => h.close());
  const base = () => `/apps/${h.appId}/flags/k/schedules`;
  const prod = () => h.envs.production.id;
  const schedule = (body: unknown) => h.request('POST', base(), { body });
  const enabledFor = async (plan: string) =>
    (await h.request('GET', '/features/evaluated', { key: h.envs.production.secretKey, query: { 'context.user.id': 'u1', 'context.user.plan': plan } })).body.features.k?.isEnabled ?? false;

  it('applies at `at` within a second, once: one version bump, one audit entry naming the schedule and its creator', async () => {
    const created = await schedule({ envId: prod(), at: inMs(700), targeting: { rules: [{ filter: PRO }] } });
    expect(created.status).toBe(200);
    expectSchema(ScheduleResponseSchema, created.body);
    const id = created.body.schedule.id;
    expect(created.body.schedule).toMatchObject({ envId: prod(), flagKey: 'k', status: 'pending', appliedAt: null, flagStateVersion: null, targeting: { rules: [{ filter: PRO }] } });
    const before = await versions(h);
    expect(await enabledFor('pro')).toBe(false);
    // SDKs listening on /sse/server hear of the applied change.
    const controller = new AbortController();
    const stream = await fetch(`${h.baseUrl}/sse/server`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${h.envs.production.secretKey}` }, signal: controller.signal });
    let sse = '';
    const pumped = (async () => {
      const decoder = new TextDecoder();
      const reader = stream.body!.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          sse += decoder.decode(value, { stream: true });
        }
      } catch {
        // aborted at the end of the test
      }
    })();

    const applied = await until(async () => {
      const list = (await h.request('GET', base())).body;
      return list.data[0].status === 'applied' ? list : undefined;
    }, 2500);
    expectSchema(ListSchedulesResponseSchema, applied);
    const row = applied.data[0];
    expect(new Date(row.appliedAt).getTime() - new Date(row.at).getTime()).toBeLessThan(1000);
    expect(await versions(h)).toEqual({ ...before, [prod()]: before[prod()]! + 1 });
    expect(row.flagStateVersion).toBe(before[prod()]! + 1);
    expect(await enabledFor('pro')).toBe(true);
    expect(await enabledFor('free')).toBe(false);
    await until(async () => (sse.includes(`"flagStateVersion":${before[prod()]! + 1}`) ? true : undefined), 2000);
    controller.abort();
    await pumped;

    const audit = (await h.request('GET', `/apps/${h.appId}/audit`)).body.data;
    const entries = audit.filter((e: { action: string }) => e.action === 'flag.schedule.applied');
    expect(entries).toHaveLength(1);
    expect(entries[0].changeDescription).toContain(id);
    expect(entries[0].changeDescription).toContain(created.body.schedule.createdBy);
    expect(entries[0].actor).toBe(created.body.schedule.createdBy);
    await sleep(700);
    expect(await versions(h), 'applied once, not again on later looks').toEqual({ ...before, [prod()]: before[prod()]! + 1 });
  });

  it('lists pending first and cancels a pending schedule, which then never applies', async () => {
    const later = (await schedule({ envId: prod(), at: inMs(60_000), targeting: { rules: [{ filter: ON }] } })).body.schedule;
    const soon = (await schedule({ envId: prod(), at: inMs(600), targeting: { rules: [{ filter: PRO }] } })).body.schedule;
    const dev = (await schedule({ envId: h.envs.development.id, at: inMs(30_000), targeting: { rules: [] } })).body.schedule;
    const listed = (await h.request('GET', base())).body.data.map((s: { id: string }) => s.id);
    expect(listed).toEqual([soon.id, dev.id, later.id]);
    expect((await h.request('GET', base(), { query: { envId: prod() } })).body.data.map((s: { id: string }) => s.id)).toEqual([soon.id, later.id]);

    const cancelled = await h.request('DELETE', `${base()}/${soon.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.schedule).toMatchObject({ id: soon.id, status: 'cancelled' });
    const before = await versions(h);
    await sleep(1200);
    expect(await versions(h)).toEqual(before);
    expect(await enabledFor('pro')).toBe(false);
    expectError(await h.request('DELETE', `${base()}/${soon.id}`), 400, 'not_possible', 'scheduleId');
    expectError(await h.request('DELETE', `${base()}/scnope`), 404, 'not_found');
    const order = (await h.request('GET', base())).body.data.map((s: { id: string; status: string }) => [s.id, s.status]);
    expect(order).toEqual([[dev.id, 'pending'], [later.id, 'pending'], [soon.id, 'cancelled']]);
  });

  it('refuses a past time, an unknown flag or environment and an invalid targeting, storing nothing', async () => {
    await expectNothingStored(h, async () => {
      expectError(await schedule({ envId: prod(), at: new Date(Date.now() - 1000).toISOString(), targeting: { rules: [] } }), 400, 'invalid_request', 'at');
      expectError(await schedule({ envId: prod(), at: 'tomorrow', targeting: { rules: [] } }), 400, 'invalid_request', 'at');
      expectError(await h.request('POST', `/apps/${h.appId}/flags/missing/schedules`, { body: { envId: prod(), at: inMs(60_000), targeting: { rules: [] } } }), 404, 'not_found');
      expectError(await schedule({ envId: 'ennope', at: inMs(60_000), targeting: { rules: [] } }), 404, 'not_found');
      expectError(await schedule({ envId: prod(), at: inMs(60_000), targeting: { rules: [{ filter: { ...PRO, values: [] } }] } }), 400, 'invalid_request', 'targeting.rules.0.filter.values');
      expectError(await schedule({ envId: prod(), at: inMs(60_000), targeting: { rules: [{ filter: ON, segmentId: 'sgnope' }] } }), 400, 'not_possible', 'targeting.rules.0.segmentId');
      expectError(await schedule({ envId: prod(), at: inMs(60_000), targeting: { rules: [], prerequisites: [{ flagKey: 'nope', isEnabled: true }] } }), 400, 'not_possible', 'targeting.prerequisites.0.flagKey');
      expectError(await schedule({ envId: prod(), at: inMs(60_000), targeting: { rules: [], extra: 1 } }), 400, 'invalid_request');
      expectError(await schedule({ envId: prod(), at: inMs(60_000) }), 400, 'invalid_request', 'targeting');
    });
  });

  it('fails with the reason when what it needs is gone when due (a deleted segment, an archived flag)', async () => {
    const segment = (await h.request('POST', `/apps/${h.appId}/segments`, { body: { name: 'Pro', filter: PRO } })).body.segment;
    const usesSegment = (await schedule({ envId: prod(), at: inMs(600), targeting: { rules: [{ filter: ON, segmentId: segment.id }] } })).body.schedule;
    await createFlag(h, { key: 'gone' });
    const onArchived = (await h.request('POST', `/apps/${h.appId}/flags/gone/schedules`, { body: { envId: prod(), at: inMs(600), targeting: { rules: [{ filter: ON }] } } })).body.schedule;
    expect((await h.request('DELETE', `/apps/${h.appId}/segments/${segment.id}`)).status).toBe(200);
    const gone = (await h.request('GET', `/apps/${h.appId}/flags`)).body.data.find((f: { key: string }) => f.key === 'gone');
    expect((await h.request('PATCH', `/apps/${h.appId}/flags/${gone.id}`, { body: { isArchived: true } })).status).toBe(200);
    const before = await versions(h);
    const failed = await until(async () => {
      const row = (await h.request('GET', base())).body.data.find((s: { id: string }) => s.id === usesSegment.id);
      return row.status === 'failed' ? row : undefined;
    });
    expect(failed.reason).toMatch(/segment/i);
    const other = await until(async () => {
      const row = (await h.request('GET', `/apps/${h.appId}/flags/gone/schedules`)).body.data[0];
      return row.status === 'failed' ? row : undefined;
    });
    expect(other).toMatchObject({ id: onArchived.id, reason: 'Flag gone was archived' });
    expect(await versions(h)).toEqual(before);
  });
});

describe('scheduled changes survive a restart', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'flagmount-schedules-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an instance started after `at` applies an overdue schedule at start', async () => {
    const filename = join(dir, 'flags.db');
    const first = await startHarness(expressFactory, { storage: sqliteStorage({ filename }) });
    await createFlag(first, { key: 'k' });
    const id = (await first.request('POST', `/apps/${first.appId}/flags/k/schedules`, { body: { envId: first.envs.production.id, at: inMs(300), targeting: { rules: [{ filter: ON }] } } })).body.schedule.id;
    await first.close();
    await sleep(500);
    const second = await startHarness(expressFactory, { storage: sqliteStorage({ filename }) });
    try {
      // Applied while the instance started: the first read already sees it.
      const row = await second.storage.schedules.get(id);
      expect(row).toMatchObject({ status: 'applied' });
      const features = (await second.request('GET', '/features/evaluated', { key: second.envs.production.secretKey, query: { 'context.user.id': 'u' } })).body.features;
      expect(features.k.isEnabled).toBe(true);
      expect(second.instance.client.isEnabled('k', { user: { id: 'u' } })).toBe(false); // default client = Development
    } finally {
      await second.close();
    }
  });
});
