import { describe, expect, it } from 'vitest';
import { ExportDocumentSchema, ImportResponseSchema } from '../../../packages/core/src/schemas/export.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, keyWithScopes, versions } from './support/management.js';

const ON = { type: 'constant', value: true } as const;
const PRO = { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } as const;

forEachAdapter((harness) => {
  const exportDoc = async (h: Harness) => (await h.request('GET', `/apps/${h.appId}/export`)).body;
  const importDoc = (h: Harness, body: unknown, dryRun = false) =>
    h.request('POST', `/apps/${h.appId}/import`, { body, query: { dryRun: String(dryRun) } });

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
