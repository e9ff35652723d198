import { describe, expect, it } from 'vitest';
import { DeletedSchema } from '../../../packages/core/src/schemas/common.js';
import { ListSegmentsResponseSchema, SegmentMutationResponseSchema, SegmentSchema } from '../../../packages/core/src/schemas/segment.js';
import { ListStagesResponseSchema, StageHeaderSchema, StageUpdateResponseSchema } from '../../../packages/core/src/schemas/stage.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema, str, versions } from './support/management.js';

const VIP = { type: 'context', field: 'company.tier', operator: 'IS', values: ['vip'] } as const;

forEachAdapter((harness) => {
  const stages = (h: Harness) => `/apps/${h.appId}/stages`;
  const segments = (h: Harness) => `/apps/${h.appId}/segments`;

  describe('stages (extension)', () => {
    it('lists, creates (order after the last), updates and deletes', async () => {
      const h = harness();
      const list = await h.request('GET', stages(h));
      expectSchema(ListStagesResponseSchema, list.body);
      expect(list.body.data.map((s: { order: number }) => s.order)).toEqual([0, 1, 2, 3]);
      const created = await h.request('POST', stages(h), { body: { name: 'Sunset', color: 'DarkSlateGray' } });
      expect(created.status).toBe(200);
      expectSchema(StageHeaderSchema, created.body);
      expect(created.body).toMatchObject({ name: 'Sunset', color: 'DarkSlateGray', order: 4 });
      expect(created.body.id).toHaveLength(14);
      const updated = await h.request('PATCH', `${stages(h)}/${created.body.id}`, { body: { color: '#abcdef', order: 9 } });
      expectSchema(StageUpdateResponseSchema, updated.body);
      expect(updated.body).toMatchObject({ color: '#abcdef', order: 9 });
      const deleted = await h.request('DELETE', `${stages(h)}/${created.body.id}`);
      expectSchema(DeletedSchema, deleted.body);
      expect((await h.request('GET', stages(h))).body.data).toHaveLength(4);
    });

    it('color is 1..64 characters and an HTML color name or hex code', async () => {
      const h = harness();
      await expectNothingStored(h, async () => {
        expectError(await h.request('POST', stages(h), { body: { name: 'x', color: '' } }), 400, 'invalid_request', 'color');
        expectError(await h.request('POST', stages(h), { body: { name: 'x', color: str(65) } }), 400, 'invalid_request', 'color');
        expectError(await h.request('POST', stages(h), { body: { name: 'x', color: 'notacolor' } }), 400, 'invalid_request', 'color');
        expectError(await h.request('POST', stages(h), { body: { name: 'x', color: '#12' } }), 400, 'invalid_request', 'color');
        expectError(await h.request('POST', stages(h), { body: { name: '', color: 'red' } }), 400, 'invalid_request', 'name');
        expectError(await h.request('POST', stages(h), { body: { name: 'x' } }), 400, 'invalid_request', 'color');
      });
      expect((await h.request('POST', stages(h), { body: { name: 'x', color: 'lightgoldenrodyellow' } })).status).toBe(200);
    });

    it('a stage in use cannot be deleted; renaming it bumps every environment (served in /features)', async () => {
      const h = harness();
      const sid = (await h.request('GET', stages(h))).body.data[0].id;
      const unused = (await h.request('GET', stages(h))).body.data[1].id;
      await createFlag(h, { key: 'k', stageId: sid });
      await expectNothingStored(h, async () => {
        expectError(await h.request('DELETE', `${stages(h)}/${sid}`), 400, 'not_possible');
        expectError(await h.request('DELETE', `${stages(h)}/stnope`), 404, 'not_found');
        expectError(await h.request('PATCH', `${stages(h)}/stnope`, { body: { name: 'x' } }), 404, 'not_found');
      });
      const before = await versions(h);
      const renamedUnused = await h.request('PATCH', `${stages(h)}/${unused}`, { body: { name: 'Nobody uses me' } });
      expect(await versions(h)).toEqual(before);
      expect(renamedUnused.body.flagStateVersions).toEqual(before);
      // The answer carries the versions holding the rename, as every other mutation of flag state does.
      const renamed = await h.request('PATCH', `${stages(h)}/${sid}`, { body: { name: 'Renamed' } });
      const after = Object.fromEntries(Object.entries(before).map(([env, v]) => [env, v + 1]));
      expect(await versions(h)).toEqual(after);
      expect(renamed.body).toEqual({ id: sid, name: 'Renamed', color: expect.any(String), order: 0, flagStateVersions: after });
      const served = (await h.request('GET', '/features', { key: h.envs.production.secretKey })).body.features[0];
      expect(served.stage.name).toBe('Renamed');
    });
  });

  describe('segments (extension)', () => {
    it('lists the All segment, creates, reads, updates and deletes custom ones', async () => {
      const h = harness();
      const list = await h.request('GET', segments(h));
      expectSchema(ListSegmentsResponseSchema, list.body);
      expect(list.body.data).toEqual([expect.objectContaining({ name: 'All', type: 'all', filter: { type: 'constant', value: true } })]);
      // Every segment change (create, update, delete) advances every environment once (architecture.md).
      const bumped = (from: Record<string, number>) => Object.fromEntries(Object.entries(from).map(([env, v]) => [env, v + 1]));
      const v0 = await versions(h);
      const created = await h.request('POST', segments(h), { body: { name: 'VIP', filter: VIP } });
      expect(created.status).toBe(200);
      expectSchema(SegmentMutationResponseSchema, created.body);
      expect(created.body.segment).toMatchObject({ name: 'VIP', type: 'custom', filter: VIP });
      expect(created.body.flagStateVersions).toEqual(bumped(v0));
      const id = created.body.segment.id;
      const read = await h.request('GET', `${segments(h)}/${id}`);
      expectSchema(SegmentSchema, read.body);
      const updated = await h.request('PATCH', `${segments(h)}/${id}`, { body: { name: 'Very important' } });
      expectSchema(SegmentMutationResponseSchema, updated.body);
      expect(updated.body.segment.name).toBe('Very important');
      expect(updated.body.flagStateVersions).toEqual(bumped(bumped(v0)));
      const unchanged = await h.request('PATCH', `${segments(h)}/${id}`, { body: { name: 'Very important' } });
      expect(unchanged.body.flagStateVersions).toEqual(bumped(bumped(v0)));
      const deleted = await h.request('DELETE', `${segments(h)}/${id}`);
      expect(deleted.body).toEqual({ id, deleted: true, flagStateVersions: bumped(bumped(bumped(v0))) });
      expect(await versions(h)).toEqual(bumped(bumped(bumped(v0))));
      expectError(await h.request('GET', `${segments(h)}/${id}`), 404, 'not_found');
    });

    it('validates filters with the engine (shape and semantics), storing nothing', async () => {
      const h = harness();
      await expectNothingStored(h, async () => {
        expectError(await h.request('POST', segments(h), { body: { name: 'x', filter: { type: 'nope' } } }), 400, 'invalid_request');
        expectError(await h.request('POST', segments(h), { body: { name: 'x', filter: { ...VIP, values: ['a', 'b'] } } }), 400, 'invalid_request', 'filter.values');
        expectError(await h.request('POST', segments(h), { body: { name: 'x', filter: { ...VIP, field: 'plan' } } }), 400, 'invalid_request', 'filter.field');
        expectError(
          await h.request('POST', segments(h), { body: { name: 'x', filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 100001 } } }),
          400,
          'invalid_request',
        );
        expectError(await h.request('POST', segments(h), { body: { name: '', filter: VIP } }), 400, 'invalid_request', 'name');
        // A segment serves many flags: its rollouts hash with each flag's key, so it names none.
        expectError(
          await h.request('POST', segments(h), { body: { name: 'x', filter: { type: 'rolloutPercentage', key: 'k', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 5000 } } }),
          400,
          'invalid_request',
          'filter.key',
        );
      });
    });

    it('the all segment is immutable', async () => {
      const h = harness();
      const all = (await h.request('GET', segments(h))).body.data[0].id;
      await expectNothingStored(h, async () => {
        expectError(await h.request('PATCH', `${segments(h)}/${all}`, { body: { name: 'Everyone' } }), 400, 'not_possible');
        expectError(await h.request('DELETE', `${segments(h)}/${all}`), 400, 'not_possible');
      });
    });

    it('a filter change bumps every environment once and the targeting version of flags using it; in-use segments cannot be deleted', async () => {
      const h = harness();
      const id = (await h.request('POST', segments(h), { body: { name: 'VIP', filter: VIP } })).body.segment.id;
      await createFlag(h, { key: 'k' });
      await h.request('PUT', `/apps/${h.appId}/flags/k/targeting/${h.envs.production.id}`, {
        body: { rules: [{ segmentId: id, filter: { type: 'constant', value: true } }] },
      });
      const before = await versions(h);
      const res = await h.request('PATCH', `${segments(h)}/${id}`, { body: { filter: { ...VIP, values: ['gold'] } } });
      expect(res.body.flagStateVersions).toEqual(Object.fromEntries(Object.entries(before).map(([e, v]) => [e, v + 1])));
      const served = (await h.request('GET', '/features', { key: h.envs.production.secretKey })).body.features[0];
      expect(served.targeting.version).toBe(2);
      expect(JSON.stringify(served.targeting.rules)).toContain('gold');
      // Same filter with keys in another order: nothing changes.
      await expectNothingStored(h, async () => {
        const same = await h.request('PATCH', `${segments(h)}/${id}`, { body: { filter: { values: ['gold'], operator: 'IS', field: 'company.tier', type: 'context' } } });
        expect(same.status).toBe(200);
        const refused = await h.request('DELETE', `${segments(h)}/${id}`);
        expectError(refused, 400, 'not_possible', 'segmentId');
        // Where it is used, by flag key and environment name, so the rules to change first can be found.
        expect(refused.body.issues.segmentId).toEqual(['used by the rules of flag k in Production']);
      });
    });
  });
});
