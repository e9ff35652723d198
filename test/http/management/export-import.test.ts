import { describe, expect, it } from 'vitest';
import { ExportDocumentSchema, ImportResponseSchema } from '../../../packages/core/src/schemas/export.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, keyWithScopes, versions } from './support/management.js';

const ON = { type: 'constant', value: true } as const;
const PRO = { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } as const;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const flagDoc = (key: string, targeting: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  ({ key, name: key, description: null, stage: null, permanent: false, secret: false, archived: false, targeting, ...extra }) as any;
const withPrerequisites = (...prerequisites: Array<[string, boolean]>) => ({
  rules: [{ filter: ON }],
  config: { variants: [] },
  prerequisites: prerequisites.map(([flagKey, isEnabled]) => ({ flagKey, isEnabled })),
});

forEachAdapter((harness) => {
  const exportDoc = async (h: Harness) => (await h.request('GET', `/apps/${h.appId}/export`)).body;
  const importDoc = (h: Harness, body: unknown, dryRun = false) =>
    h.request('POST', `/apps/${h.appId}/import`, { body, query: { dryRun: String(dryRun) } });

  /** Flags a, b, c; a requires c off and b on in Production; two pending schedules on a, one settled (cancelled). */
  async function safeReleaseSetup(h: Harness) {
    for (const key of ['a', 'b', 'c']) await createFlag(h, { key });
    const segment = (await h.request('POST', `/apps/${h.appId}/segments`, { body: { name: 'Pros', filter: PRO } })).body.segment;
    const prod = h.envs.production.id;
    const put = await h.request('PUT', `/apps/${h.appId}/flags/a/targeting/${prod}`, {
      body: { rules: [{ filter: ON }], prerequisites: [{ flagKey: 'c', isEnabled: false }, { flagKey: 'b', isEnabled: true }] },
    });
    expect(put.status).toBe(200);
    const schedule = (body: unknown) => h.request('POST', `/apps/${h.appId}/flags/a/schedules`, { body });
    const later = inMs(3_600_000);
    const sooner = inMs(1_800_000);
    expect((await schedule({ envId: prod, at: later, targeting: { rules: [{ filter: ON, segmentId: segment.id }], prerequisites: [{ flagKey: 'b', isEnabled: true }] } })).status).toBe(200);
    expect((await schedule({ envId: prod, at: sooner, targeting: { rules: [] } })).status).toBe(200);
    const cancelled = await schedule({ envId: h.envs.development.id, at: later, targeting: { rules: [] } });
    expect((await h.request('DELETE', `/apps/${h.appId}/flags/a/schedules/${cancelled.body.schedule.id}`)).status).toBe(200);
    return { later, sooner };
  }
  const pendingOf = async (h: Harness, appId: string, flagKey: string) =>
    (await h.request('GET', `/apps/${appId}/flags/${flagKey}/schedules`)).body.data.filter((s: { status: string }) => s.status === 'pending');

  describe('prerequisites and pending schedules in export and import (extension)', () => {
    it('exports them by key and name, without ids; export → import into a new app → export is byte-equal', async () => {
      const h = harness();
      const { later, sooner } = await safeReleaseSetup(h);
      const doc = await exportDoc(h);
      expectSchema(ExportDocumentSchema, doc);
      const text = JSON.stringify(doc);
      expect(JSON.stringify(await exportDoc(h))).toBe(text);
      const a = doc.flags.find((f: { key: string }) => f.key === 'a');
      expect(a.targeting.Production.prerequisites).toEqual([{ flagKey: 'b', isEnabled: true }, { flagKey: 'c', isEnabled: false }]);
      expect(a.targeting.Development.prerequisites).toEqual([]);
      // Pending only, by `at`; settled schedules (the cancelled one in Development) are history, not setup.
      expect(a.schedules).toEqual({
        Production: [
          { at: sooner, targeting: { rules: [] } },
          { at: later, targeting: { rules: [{ filter: ON, segment: 'Pros' }], prerequisites: [{ flagKey: 'b', isEnabled: true }] } },
        ],
      });
      expect(JSON.stringify(a.schedules)).not.toMatch(/"(id|envId|segmentId|createdBy|createdAt|status)"/);

      const copy = await h.request('POST', '/apps/import', { body: { ...doc, app: { ...doc.app, name: 'Copy' } } });
      expect(copy.status).toBe(200);
      expect(copy.body.changes.filter((c: { resource: string }) => c.resource === 'schedule')).toEqual([
        { resource: 'schedule', name: 'a', environment: 'Production', at: sooner, action: 'create', fields: [] },
        { resource: 'schedule', name: 'a', environment: 'Production', at: later, action: 'create', fields: [] },
      ]);
      const again = (await h.request('GET', `/apps/${copy.body.appId}/export`)).body;
      expect(JSON.stringify({ ...again, app: doc.app })).toBe(text);
      expect(await pendingOf(h, copy.body.appId, 'a')).toHaveLength(2);
    });

    it('re-importing creates no duplicate schedule and changes nothing; a schedule due in the past is applied', async () => {
      const h = harness();
      await safeReleaseSetup(h);
      const doc = await exportDoc(h);
      const before = await versions(h);
      const res = await importDoc(h, doc);
      expect(res.body.summary).toMatchObject({ create: 0, update: 0 });
      expect(await pendingOf(h, h.appId, 'a')).toHaveLength(2);
      expect(await versions(h)).toEqual(before);

      // A schedule listed twice is created twice, once; an `at` already past is accepted and applied on the next look,
      // and a re-import after it went out does not bring it back.
      delete doc.flags[1].targeting.Production; // kept as stored: only the schedules change it
      doc.flags[1].schedules = { production: [0, 1].map(() => ({ at: inMs(-60_000), targeting: { rules: [{ filter: PRO }] } })) };
      expect((await importDoc(h, doc)).body.summary).toMatchObject({ create: 2, update: 0 });
      expect((await importDoc(h, doc)).body.summary).toMatchObject({ create: 0, update: 0 });
      for (let waited = 0; (await pendingOf(h, h.appId, 'b')).length; waited += 25) {
        if (waited > 10_000) throw new Error('the past schedules were not applied');
        await sleep(25);
      }
      const b = (await exportDoc(h)).flags[1];
      expect(b.schedules).toEqual({});
      expect(b.targeting.Production.rules).toEqual([{ filter: PRO }]);
      expect((await importDoc(h, doc)).body.summary).toMatchObject({ create: 0, update: 0 });
      expect(await pendingOf(h, h.appId, 'b')).toEqual([]);
    });

    it('dry run shows prerequisite and schedule changes and stores nothing', async () => {
      const h = harness();
      await safeReleaseSetup(h);
      const doc = await exportDoc(h);
      doc.flags[0].targeting.Production.prerequisites = [{ flagKey: 'b', isEnabled: false }];
      const at = inMs(7_200_000);
      doc.flags[2].schedules = { Production: [{ at, targeting: { rules: [], prerequisites: [{ flagKey: 'new', isEnabled: true }] } }] };
      doc.flags.push(flagDoc('new'));
      await expectNothingStored(h, async () => {
        const res = await importDoc(h, doc, true);
        expect(res.status).toBe(200);
        expect(res.body.changes.filter((c: { action: string }) => c.action !== 'unchanged')).toEqual([
          { resource: 'flag', name: 'new', action: 'create', fields: [] },
          { resource: 'targeting', name: 'a', environment: 'Production', action: 'update', fields: ['prerequisites'] },
          { resource: 'schedule', name: 'c', environment: 'Production', at, action: 'create', fields: [] },
        ]);
      });
    });

    it('applies prerequisites on the graph the whole file makes: new flags may be required, a → b may become b → a', async () => {
      const h = harness();
      await safeReleaseSetup(h);
      const doc = await exportDoc(h);
      doc.flags[0].targeting.Production = withPrerequisites();
      doc.flags[0].schedules = {}; // one would require b: a cycle once b requires a
      doc.flags[1].targeting.Production = withPrerequisites(['a', true], ['z', false]);
      doc.flags.push(flagDoc('z', { Production: withPrerequisites() }));
      const before = await versions(h);
      const res = await importDoc(h, doc);
      expect(res.status).toBe(200);
      expect(await versions(h)).toEqual(Object.fromEntries(Object.entries(before).map(([id, v]) => [id, v + 1])));
      const targeting = (await h.request('GET', `/apps/${h.appId}/flags/b/targeting/${h.envs.production.id}`)).body;
      expect(targeting.prerequisites).toEqual([{ flagKey: 'a', isEnabled: true }, { flagKey: 'z', isEnabled: false }]);
    });

    it('refuses a cycle, a chain deeper than 5, unknown, archived or self prerequisites whole, with their paths', async () => {
      const h = harness();
      await safeReleaseSetup(h);
      const doc = await exportDoc(h);
      doc.flags[1].targeting.Production = withPrerequisites(['a', true]);
      await expectNothingStored(h, async () => {
        const res = await importDoc(h, doc);
        expectError(res, 400, 'invalid_request');
        expect(Object.keys(res.body.issues)).toEqual(['flags.1.targeting.Production.prerequisites']);
        expect(res.body.issues['flags.1.targeting.Production.prerequisites'][0]).toMatch(/^The prerequisites would make a cycle in Production: (a → b → a|b → a → b)$/);
      });
      // Through a schedule: checked against the graph the file makes, as POST …/schedules checks the stored one.
      const scheduled = await exportDoc(h);
      scheduled.flags[1].schedules = { Production: [{ at: inMs(60_000), targeting: { rules: [], prerequisites: [{ flagKey: 'a', isEnabled: true }] } }] };
      const viaSchedule = (await importDoc(h, scheduled)).body.issues;
      expect(Object.keys(viaSchedule)).toEqual(['flags.1.schedules.Production.0.targeting.prerequisites']);
      expect(viaSchedule['flags.1.schedules.Production.0.targeting.prerequisites'][0]).toMatch(/would make a cycle in Production/);

      const deep = await exportDoc(h);
      const chain = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'];
      chain.forEach((key, i) => deep.flags.push(flagDoc(key, { Development: withPrerequisites(...(i < 5 ? [[chain[i + 1]!, true] as [string, boolean]] : [])) })));
      deep.flags[0].targeting.Development = withPrerequisites(['d1', true]);
      const tooDeep = await importDoc(h, deep);
      expect(Object.keys(tooDeep.body.issues)).toEqual(['flags.0.targeting.Development.prerequisites']);
      expect(tooDeep.body.issues['flags.0.targeting.Development.prerequisites'][0]).toMatch(/chain of 6 prerequisites/);

      const bad = await exportDoc(h);
      bad.flags[0].targeting.Production.prerequisites = [{ flagKey: 'ghost', isEnabled: true }, { flagKey: 'a', isEnabled: true }, { flagKey: 'ghost', isEnabled: true }];
      bad.flags[2].archived = true;
      bad.flags[1].targeting.Development = withPrerequisites(['c', true]);
      const refused = await importDoc(h, bad);
      expectError(refused, 400, 'invalid_request');
      expect(refused.body.issues).toEqual({
        'flags.0.targeting.Production.prerequisites.0.flagKey': ['no flag with key "ghost" in flags'],
        'flags.0.targeting.Production.prerequisites.1.flagKey': ['a flag cannot require itself'],
        'flags.0.targeting.Production.prerequisites.2.flagKey': ['duplicate prerequisite "ghost"'],
        'flags.1.targeting.Development.prerequisites.0.flagKey': ['flag "c" is archived'],
      });
      // Archiving a flag that stored targeting still requires (an environment left out keeps its targeting) is refused,
      // as PATCH refuses it.
      const archive = await exportDoc(h);
      archive.flags[2].archived = true;
      delete archive.flags[0].targeting.Production;
      expect((await importDoc(h, archive)).body.issues).toEqual({ 'flags.2.archived': ['flag a requires it in Production'] });
    });
  });

  describe('GET /apps/{appId}/export and POST /apps/{appId}/import (extension)', () => {
    it('exports a schema-valid document; importing it back changes nothing and bumps nothing', async () => {
      const h = harness();
      await createFlag(h, { key: 'k', name: 'K' });
      await h.request('PUT', `/apps/${h.appId}/flags/k/targeting/${h.envs.production.id}`, { body: { rules: [{ filter: PRO }] } });
      const doc = await exportDoc(h);
      expectSchema(ExportDocumentSchema, doc);
      const before = await versions(h);
      const res = await importDoc(h, doc);
      expect(res.status).toBe(200);
      expectSchema(ImportResponseSchema, res.body);
      expect(res.body.summary).toMatchObject({ create: 0, update: 0 });
      expect(await versions(h)).toEqual(before);
    });

    it('advances only the environments whose served state changed, each exactly once', async () => {
      const h = harness();
      await createFlag(h, { key: 'a', name: 'A' });
      await createFlag(h, { key: 'b', name: 'B' });
      const doc = await exportDoc(h);
      for (const flag of doc.flags) flag.targeting.Production = { rules: [{ filter: ON }], config: { variants: [{ key: 'v', payload: { n: 1 }, filter: ON }] } };
      const before = await versions(h);
      const res = await importDoc(h, doc);
      expect(res.status).toBe(200);
      expect(res.body.changes.filter((c: { action: string }) => c.action !== 'unchanged')).toEqual([
        { resource: 'targeting', name: 'a', environment: 'Production', action: 'create', fields: [] },
        { resource: 'targeting', name: 'b', environment: 'Production', action: 'create', fields: [] },
      ]);
      expect(await versions(h)).toEqual({ ...before, [h.envs.production.id]: before[h.envs.production.id]! + 1 });
      expect(res.body.flagStateVersions).toEqual(await versions(h));

      // A flag field is served everywhere: every environment advances, once, even with targeting changes too.
      doc.flags[0].name = 'A renamed';
      doc.flags[1].targeting.Development = { rules: [{ filter: PRO }], config: { variants: [] } };
      const mid = await versions(h);
      expect((await importDoc(h, doc)).status).toBe(200);
      expect(await versions(h)).toEqual(Object.fromEntries(Object.entries(mid).map(([id, v]) => [id, v + 1])));
    });

    it('dry run answers the diff and stores nothing', async () => {
      const h = harness();
      const doc = await exportDoc(h);
      doc.flags.push({ key: 'new', name: 'New', description: null, stage: 'Beta', permanent: false, secret: false, archived: false, targeting: {} });
      doc.environments.push({ name: 'Staging', order: 2, isProduction: false });
      await expectNothingStored(h, async () => {
        const res = await importDoc(h, doc, true);
        expect(res.status).toBe(200);
        expect(res.body.dryRun).toBe(true);
        expect(res.body.changes).toEqual(
          expect.arrayContaining([
            { resource: 'flag', name: 'new', action: 'create', fields: [] },
            { resource: 'environment', name: 'Staging', action: 'create', fields: [] },
          ]),
        );
      });
    });

    it('refuses an invalid document whole: 400 invalid_request with every problem path, nothing stored', async () => {
      const h = harness();
      const doc = await exportDoc(h);
      doc.flags.push({ key: 'x', name: 'X', description: null, stage: 'Nope', permanent: false, secret: false, archived: false, targeting: { Nowhere: { rules: [{ filter: ON, segment: 'Ghost' }], config: { variants: [] } } } });
      await expectNothingStored(h, async () => {
        const res = await importDoc(h, doc);
        expectError(res, 400, 'invalid_request');
        expect(Object.keys(res.body.issues).sort()).toEqual(['flags.0.stage', 'flags.0.targeting.Nowhere', 'flags.0.targeting.Nowhere.rules.0.segment']);
      });
      const all = await exportDoc(h);
      all.segments[0].filter = { type: 'constant', value: false };
      expect((await importDoc(h, all)).body.issues).toEqual({ 'segments.0': ['the "all" segment "All" cannot be changed'] });
      const shape = await importDoc(h, { formatVersion: 2, app: {}, environments: [], stages: [], segments: [], flags: [] });
      expectError(shape, 400, 'invalid_request');
      expect(Object.keys(shape.body.issues)).toEqual(expect.arrayContaining(['formatVersion', 'app.name', 'environments']));
    });

    it('export needs read, import needs admin', async () => {
      const h = harness();
      const read = await keyWithScopes(h, ['read']);
      const doc = (await h.request('GET', `/apps/${h.appId}/export`, { key: read })).body;
      expect(doc.formatVersion).toBe(1);
      expectError(await h.request('POST', `/apps/${h.appId}/import`, { key: read, body: doc }), 403, 'unauthorized');
      expectError(await h.request('POST', '/apps/import', { key: read, body: doc }), 403, 'unauthorized');
      expectError(await h.request('GET', `/apps/${h.appId}/export`, { key: null }), 401, 'unauthenticated');
    });

    it('POST /apps/import creates the app of another name, with fresh SDK keys that serve /features at once', async () => {
      const h = harness();
      const doc = await exportDoc(h);
      doc.app.name = 'Copy';
      doc.flags = [{ key: 'k', name: 'K', description: null, stage: null, permanent: false, secret: false, archived: false, targeting: { Production: { rules: [{ filter: ON }], config: { variants: [] } } } }];
      const res = await h.request('POST', '/apps/import', { body: doc });
      expect(res.status).toBe(200);
      const app = (await h.request('GET', `/apps/${res.body.appId}`)).body;
      expect(app.name).toBe('Copy');
      const production = app.environments.find((e: { name: string }) => e.name === 'Production');
      expect(production.sdkAccess.secretKey).not.toBe(h.envs.production.secretKey);
      const features = await h.request('GET', '/features/enabled', { key: production.sdkAccess.secretKey, query: { 'context.user.id': 'u' } });
      expect(features.status).toBe(200);
      expect(JSON.stringify(features.body)).toContain('"k"');
    });
  });
});
