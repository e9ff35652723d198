import { describe, expect, it } from 'vitest';
import { FLAG_SORT_BY, ListFlagsResponseSchema } from '../../../packages/core/src/schemas/flag.js';
import { forEachAdapter, type Harness } from '../support/harness.js';
import { createFlag, expectError, expectSchema } from './support/management.js';

const keysOf = (body: { data: Array<{ key: string }> }) => body.data.map((f) => f.key);
const list = (h: Harness, query: Record<string, string | number | boolean> = {}) => h.request('GET', `/apps/${h.appId}/flags`, { query });
const DAY = 86_400_000;

async function seed(h: Harness): Promise<void> {
  for (const key of ['delta', 'alpha', 'charlie', 'bravo', 'echo']) await createFlag(h, { key, name: key.toUpperCase() });
}

forEachAdapter((harness) => {
  describe('GET /apps/{appId}/flags (row 3)', () => {
    it('answers every required field with the documented defaults', async () => {
      const h = harness();
      await seed(h);
      const res = await list(h);
      expect(res.status).toBe(200);
      expectSchema(ListFlagsResponseSchema, res.body);
      expect(res.body).toMatchObject({ totalCount: 5, pageSize: 50, pageIndex: 0, sortBy: 'key', sortOrder: 'asc' });
      expect(keysOf(res.body)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    });

    it('pages with pageIndex (0-based) and pageSize (1..1000)', async () => {
      const h = harness();
      await seed(h);
      const page = async (pageIndex: number, pageSize: number) => {
        const res = await list(h, { pageIndex, pageSize });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ pageIndex, pageSize, totalCount: 5 });
        return keysOf(res.body);
      };
      expect(await page(0, 2)).toEqual(['alpha', 'bravo']);
      expect(await page(2, 2)).toEqual(['echo']);
      expect(await page(3, 2)).toEqual([]);
      expect(await page(0, 1)).toEqual(['alpha']);
      expect(await page(0, 1000)).toHaveLength(5);
      expectError(await list(h, { pageSize: 1001 }), 400, 'invalid_request', 'pageSize');
      expectError(await list(h, { pageSize: 0 }), 400, 'invalid_request', 'pageSize');
      expectError(await list(h, { pageIndex: -1 }), 400, 'invalid_request', 'pageIndex');
      expectError(await list(h, { pageIndex: 'first' }), 400, 'invalid_request', 'pageIndex');
    });

    it('accepts every documented sortBy in both orders and echoes them', async () => {
      const h = harness();
      await seed(h);
      for (const sortBy of FLAG_SORT_BY) {
        for (const sortOrder of ['asc', 'desc'] as const) {
          const res = await list(h, { sortBy, sortOrder });
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({ sortBy, sortOrder, totalCount: 5 });
          expect(res.body.data).toHaveLength(5);
        }
      }
      expect(keysOf((await list(h, { sortBy: 'key', sortOrder: 'desc' })).body)).toEqual(['echo', 'delta', 'charlie', 'bravo', 'alpha']);
      expect(keysOf((await list(h, { sortBy: 'createdAt', sortOrder: 'desc' })).body)[0]).toBe('echo');
      expectError(await list(h, { sortBy: 'popularity' }), 400, 'invalid_request', 'sortBy');
      expectError(await list(h, { sortOrder: 'ASC' }), 400, 'invalid_request', 'sortOrder');
    });

    it('sorts by stage position and owner name, flags without one last in both orders', async () => {
      const h = harness();
      const app = (await h.request('GET', `/apps/${h.appId}`)).body;
      await h.request('PUT', '/members/m1', { body: { name: 'Zed', email: 'z@x.io' } });
      await h.request('PUT', '/members/m2', { body: { name: 'amy', email: 'a@x.io' } });
      await createFlag(h, { key: 'a', stageId: app.stages[3].id, ownerUserId: 'm1' });
      await createFlag(h, { key: 'b' });
      await createFlag(h, { key: 'c', stageId: app.stages[0].id, ownerUserId: 'm2' });
      expect(keysOf((await list(h, { sortBy: 'stage' })).body)).toEqual(['c', 'a', 'b']);
      expect(keysOf((await list(h, { sortBy: 'stage', sortOrder: 'desc' })).body)).toEqual(['a', 'c', 'b']);
      expect(keysOf((await list(h, { sortBy: 'owner' })).body)).toEqual(['c', 'a', 'b']);
      expect(keysOf((await list(h, { sortBy: 'owner', sortOrder: 'desc' })).body)).toEqual(['a', 'c', 'b']);
      expect(keysOf((await list(h, { stageId: app.stages[0].id })).body)).toEqual(['c']);
      expect(keysOf((await list(h, { ownerUserId: 'm1' })).body)).toEqual(['a']);
    });

    it('filters by search, archived and permanent; totalCount counts the filtered flags', async () => {
      const h = harness();
      await seed(h);
      const { flag } = (await createFlag(h, { key: 'old-thing', name: 'Legacy', description: 'Remove me' })).body;
      await h.request('PATCH', `/apps/${h.appId}/flags/${flag.id}`, { body: { isArchived: true, permanent: true } });
      expect(keysOf((await list(h, { search: 'REMOVE' })).body)).toEqual(['old-thing']);
      expect(keysOf((await list(h, { search: 'lph' })).body)).toEqual(['alpha']);
      expect((await list(h, { archived: true })).body).toMatchObject({ totalCount: 1 });
      expect((await list(h, { archived: false })).body).toMatchObject({ totalCount: 5 });
      expect((await list(h, { permanent: true })).body.data.map((f: { archived: boolean }) => f.archived)).toEqual([true]);
      expect((await list(h)).body.totalCount).toBe(6);
      expectError(await list(h, { archived: 'maybe' }), 400, 'invalid_request', 'archived');
    });

    it('derives lastCheckAt, lastTrackAt and noRecentChecks from activity; envId narrows it', async () => {
      const h = harness();
      await seed(h);
      const recent = new Date(Date.now() - DAY).toISOString();
      const older = new Date(Date.now() - 2 * DAY).toISOString();
      await h.storage.stats.mergeFlagDailyStats([
        { envId: h.envs.production.id, flagKey: 'alpha', day: recent.slice(0, 10), checkCount: 3, exposureCount: 0, trackCount: 0, lastCheckAt: recent, lastTrackAt: null },
        { envId: h.envs.development.id, flagKey: 'alpha', day: older.slice(0, 10), checkCount: 1, exposureCount: 0, trackCount: 2, lastCheckAt: older, lastTrackAt: older },
      ]);
      const all = (await list(h)).body.data.find((f: { key: string }) => f.key === 'alpha');
      expect(all).toMatchObject({ lastCheckAt: recent, lastTrackAt: older, noRecentChecks: false });
      const dev = (await list(h, { envId: h.envs.development.id })).body.data.find((f: { key: string }) => f.key === 'alpha');
      expect(dev).toMatchObject({ lastCheckAt: older, lastTrackAt: older });
      const bravo = (await list(h)).body.data.find((f: { key: string }) => f.key === 'bravo');
      expect(bravo).not.toHaveProperty('lastCheckAt');
      expect(bravo.noRecentChecks).toBe(true);
      expect(keysOf((await list(h, { sortBy: 'lastCheck', sortOrder: 'desc' })).body)[0]).toBe('alpha');
      expect(keysOf((await list(h, { sortBy: 'lastTrack' })).body)[0]).toBe('alpha');
      expectError(await list(h, { envId: 'ennope' }), 400, 'not_possible', 'envId');
    });


    it('sets rolledOutToEveryoneAt when production serves everyone, clears it otherwise; sorts by environmentStatus', async () => {
      const h = harness();
      await seed(h);
      const target = (key: string, envId: string, rules: unknown[]) =>
        h.request('PUT', `/apps/${h.appId}/flags/${key}/targeting/${envId}`, { body: { rules } });
      expect((await target('charlie', h.envs.production.id, [{ filter: { type: 'constant', value: true } }])).status).toBe(200);
      await target('alpha', h.envs.production.id, [{ filter: { type: 'context', field: 'user.id', operator: 'IS', values: ['1'] } }]);
      // Development only: not "rolled out in production".
      await target('bravo', h.envs.development.id, [{ filter: { type: 'constant', value: true } }]);
      const byKey = async () => Object.fromEntries((await list(h)).body.data.map((f: { key: string }) => [f.key, f]));
      const flags = await byKey();
      expect(Date.parse(flags['charlie'].rolledOutToEveryoneAt)).not.toBeNaN();
      expect(flags['bravo']).not.toHaveProperty('rolledOutToEveryoneAt');
      expect(flags['alpha']).not.toHaveProperty('rolledOutToEveryoneAt');
      expect(keysOf((await list(h, { sortBy: 'rolledOutToEveryoneAt' })).body)[0]).toBe('charlie');
      expect(keysOf((await list(h, { sortBy: 'environmentStatus', sortOrder: 'desc' })).body).slice(0, 2)).toEqual(['charlie', 'alpha']);
      expect(keysOf((await list(h, { sortBy: 'environmentStatus', sortOrder: 'desc', envId: h.envs.development.id })).body)[0]).toBe('bravo');
      await target('charlie', h.envs.production.id, []);
      expect((await byKey())['charlie']).not.toHaveProperty('rolledOutToEveryoneAt');
    });

    it('404 for an unknown app', async () => {
      expectError(await harness().request('GET', '/apps/apnope/flags'), 404, 'not_found');
    });
  });
});

/** The flags' ages matter here, so the service runs on a clock the test moves (createFlagmount's `now`). */
let clock = Date.parse('2026-03-01T12:00:00.000Z');
forEachAdapter(
  (harness) => {
    describe('GET /apps/{appId}/flags: stale (docs/api.md)', () => {
      it('marks stale a flag unchecked for the window or rolled out that long, never a new, permanent or archived one; filters and sorts by it', async () => {
        const h = harness();
        clock = Date.parse('2026-03-01T12:00:00.000Z');
        // Created 31 days before "now": they have had the whole window.
        for (const key of ['alpha', 'bravo', 'charlie', 'delta', 'echo']) await createFlag(h, { key, name: key.toUpperCase() });
        clock += 31 * DAY;
        // Created now: no check yet (foxtrot), or checked only before it existed, 40 days ago (golf).
        for (const key of ['foxtrot', 'golf']) await createFlag(h, { key, name: key.toUpperCase() });
        const iso = (ms: number) => new Date(ms).toISOString();
        const yesterday = iso(clock - DAY);
        const longAgo = iso(clock - 40 * DAY);
        const envId = h.envs.production.id;
        await h.storage.stats.mergeFlagDailyStats([
          { envId, flagKey: 'alpha', day: yesterday.slice(0, 10), checkCount: 1, exposureCount: 0, trackCount: 0, lastCheckAt: yesterday, lastTrackAt: null },
          { envId, flagKey: 'bravo', day: longAgo.slice(0, 10), checkCount: 1, exposureCount: 0, trackCount: 0, lastCheckAt: longAgo, lastTrackAt: null },
          { envId, flagKey: 'golf', day: longAgo.slice(0, 10), checkCount: 1, exposureCount: 0, trackCount: 0, lastCheckAt: longAgo, lastTrackAt: null },
        ]);
        const flagId = async (key: string) => (await h.storage.flags.getByKey(h.appId, key))!.id;
        expect((await h.request('PATCH', `/apps/${h.appId}/flags/${await flagId('charlie')}`, { body: { permanent: true } })).status).toBe(200);
        expect((await h.request('PATCH', `/apps/${h.appId}/flags/${await flagId('delta')}`, { body: { isArchived: true } })).status).toBe(200);

        const flags = Object.fromEntries((await list(h)).body.data.map((f: { key: string }) => [f.key, f]));
        const pick = (key: string) => ({ stale: flags[key].stale, noRecentChecks: flags[key].noRecentChecks });
        // alpha: checked yesterday; bravo: last checked 40 days ago; echo: never checked in its 31 days.
        expect(pick('alpha')).toEqual({ stale: false, noRecentChecks: false });
        expect(pick('bravo')).toEqual({ stale: true, noRecentChecks: true });
        expect(pick('echo')).toEqual({ stale: true, noRecentChecks: true });
        // Permanent and archived flags are never stale; noRecentChecks still says what it says.
        expect(pick('charlie')).toEqual({ stale: false, noRecentChecks: true });
        expect(pick('delta')).toEqual({ stale: false, noRecentChecks: true });
        // Brand new: not stale for lack of checks, though literally without recent checks.
        expect(pick('foxtrot')).toEqual({ stale: false, noRecentChecks: true });
        expect(pick('golf')).toEqual({ stale: false, noRecentChecks: true });

        expect(keysOf((await list(h, { stale: true })).body)).toEqual(['bravo', 'echo']);
        expect(keysOf((await list(h, { stale: false })).body)).toEqual(['alpha', 'charlie', 'delta', 'foxtrot', 'golf']);
        expect(keysOf((await list(h, { sortBy: 'stale', sortOrder: 'desc' })).body).slice(0, 2)).toEqual(['bravo', 'echo']);
        // The flag page's read (what the dashboard shows) agrees with the list.
        const one = await h.request('GET', `/apps/${h.appId}/flags/foxtrot/details`);
        expect(one.status).toBe(200);
        expect(one.body.flag).toMatchObject({ key: 'foxtrot', stale: false, noRecentChecks: true });

        // Once foxtrot has existed for the whole window without a check, it is stale.
        clock += 30 * DAY;
        const later = Object.fromEntries((await list(h)).body.data.map((f: { key: string }) => [f.key, f]));
        expect([later['foxtrot'].stale, later['golf'].stale]).toEqual([true, true]);
      });
    });
  },
  { options: { now: () => new Date(clock) } },
);
