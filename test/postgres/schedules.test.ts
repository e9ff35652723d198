import { postgresStorage } from '@flagmount/storage-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { createFlag } from '../http/management/support/management.js';
import { dropSchemas, freshSchemaName, postgresUrl, requirePostgres } from '../support/postgres.js';

/**
 * Scheduled changes on a store shared by replicas: each instance runs the scheduler, and each due schedule must be
 * applied by exactly one of them (one version bump, one audit entry), whether the replicas were running at `at` or
 * started together after it.
 */
const available = await requirePostgres('postgres scheduled changes');
const ON = { type: 'constant', value: true } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe.skipIf(!available)('scheduled changes across Postgres replicas', () => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(schemas), 60_000);
  const replica = (schema: string) => startHarness(expressFactory, { storage: postgresStorage({ connectionString: postgresUrl, schema }) });

  async function scheduleMany(h: Harness, count: number, atMs: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) await createFlag(h, { key: `f${i}` });
    const at = inMs(atMs);
    for (let i = 0; i < count; i++) {
      const res = await h.request('POST', `/apps/${h.appId}/flags/f${i}/schedules`, { body: { envId: h.envs.production.id, at, targeting: { rules: [{ filter: ON }] } } });
      expect(res.status, res.text).toBe(200);
      ids.push(res.body.schedule.id);
    }
    return ids;
  }

  async function expectAppliedOnce(h: Harness, ids: string[], versionBefore: number): Promise<void> {
    for (const id of ids) expect((await h.storage.schedules.get(id))?.status, id).toBe('applied');
    const audit = (await h.request('GET', `/apps/${h.appId}/audit`, { query: { limit: '100' } })).body.data;
    const applied = audit.filter((e: { action: string }) => e.action === 'flag.schedule.applied');
    expect(applied).toHaveLength(ids.length);
    expect(new Set(applied.map((e: { changeDescription: string }) => e.changeDescription.split(' ')[2])).size).toBe(ids.length);
    const env = await h.storage.environments.get(h.envs.production.id);
    expect(env!.flagStateVersion, 'one bump per schedule').toBe(versionBefore + ids.length);
    const versionsApplied = await Promise.all(ids.map(async (id) => (await h.storage.schedules.get(id))!.flagStateVersion));
    expect(new Set(versionsApplied).size, 'each schedule holds the version of its own bump').toBe(ids.length);
  }

  it('two replicas running at `at` apply each schedule exactly once', async () => {
    const schema = freshSchemaName();
    schemas.push(schema);
    const a = await replica(schema);
    const b = await replica(schema);
    try {
      const ids = await scheduleMany(a, 6, 1500);
      const before = (await a.storage.environments.get(a.envs.production.id))!.flagStateVersion;
      await sleep(3000);
      await expectAppliedOnce(a, ids, before);
      // Both replicas serve the change.
      for (const h of [a, b]) {
        const features = (await h.request('GET', '/features/evaluated', { key: h.envs.production.secretKey, query: { 'context.user.id': 'u' } })).body.features;
        expect(features.f0?.isEnabled).toBe(true);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);

  it('replicas started together after `at` apply an overdue schedule once, at start', async () => {
    const schema = freshSchemaName();
    schemas.push(schema);
    const first = await replica(schema);
    const ids = await scheduleMany(first, 4, 400);
    const before = (await first.storage.environments.get(first.envs.production.id))!.flagStateVersion;
    await first.close();
    await sleep(600);
    const [a, b] = await Promise.all([replica(schema), replica(schema)]);
    try {
      await expectAppliedOnce(a, ids, before);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});
