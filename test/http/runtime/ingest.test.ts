import { describe, expect, it } from 'vitest';
import { forEachAdapter } from '../support/harness.js';
import { seedFlags } from './support/seed.js';

forEachAdapter((h) => {
  const post = (path: string, body: unknown) => h().request('POST', path, { key: h().envs.development.publishableKey, body });
  const dev = () => h().envs.development.id;

  describe('POST /user', () => {
    it('creates, then merges attributes key by key; arrays stay one attribute and [] clears', async () => {
      expect((await post('/user', { userId: 'u1', attributes: { name: 'Ann', roles: ['a', 'b'], plan: 'pro' } })).body).toEqual({ success: true });
      await post('/user', { userId: 'u1', attributes: { roles: ['c'], seats: 3 } });
      let row = await h().storage.entities.get(dev(), 'user', 'u1');
      expect(row!.attributes).toEqual({ name: 'Ann', roles: ['c'], plan: 'pro', seats: 3 });
      expect(row!.name).toBe('Ann');
      await post('/user', { userId: 'u1', attributes: { roles: [] } });
      row = await h().storage.entities.get(dev(), 'user', 'u1');
      expect(row!.attributes['roles']).toEqual([]);
    });

    it('checks the key before the body: no key with a body over the limit is a 403, a key with it a 413, both with CORS', async () => {
      const big = JSON.stringify({ userId: 'u', attributes: { padding: 'x'.repeat(1_100_000) } });
      const headers = { origin: 'https://app.example' };
      const noKey = await h().request('POST', '/user', { key: null, rawBody: big, headers });
      expect(noKey.status).toBe(403);
      expect(noKey.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const keyed = await h().request('POST', '/user', { key: h().envs.development.publishableKey, rawBody: big, headers });
      expect(keyed.status).toBe(413);
      expect(keyed.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(await h().storage.entities.get(dev(), 'user', 'u')).toBeUndefined();
    });

    it('stores a numeric id as a string and honours timestamp', async () => {
      await post('/user', { userId: 123, timestamp: '2024-05-01T10:00:00Z' });
      const row = await h().storage.entities.get(dev(), 'user', '123');
      expect(row).toMatchObject({ id: '123', createdAt: '2024-05-01T10:00:00.000Z' });
    });

    it('takes a timestamp after the arrival for the arrival: a clock running ahead dates nothing in the future', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'ahead' }]);
      const before = new Date().toISOString();
      await post('/user', { userId: 'ahead-user', timestamp: '2099-01-01T00:00:00Z' });
      await post('/event', { userId: 'ahead-user', event: 'ahead', timestamp: '2099-01-01T00:00:00Z' });
      const after = new Date().toISOString();
      const user = await h().storage.entities.get(dev(), 'user', 'ahead-user');
      expect(user!.createdAt >= before && user!.createdAt <= after, user!.createdAt).toBe(true);
      const [stats] = await h().storage.stats.listEntityFlagStats(dev(), 'user', 'ahead-user');
      expect(stats!.lastTrackAt! >= before && stats!.lastTrackAt! <= after, String(stats!.lastTrackAt)).toBe(true);
    });

    it('400 for a missing/empty userId, an array id, non-object attributes, a bad timestamp, a non-JSON body', async () => {
      for (const body of [{}, { userId: '' }, { userId: ['u'] }, { userId: 'u', attributes: [] }, { userId: 'u', attributes: 'x' }, { userId: 'u', timestamp: 'yesterday' }, { userId: 'u', timestamp: '2023-02-29T10:00:00Z' }, []]) {
        const res = await post('/user', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe('invalid_request');
      }
      const broken = await h().request('POST', '/user', { key: h().envs.development.publishableKey, rawBody: '{"userId":' });
      expect(broken.status).toBe(400);
      // JSON.parse reads 1e400 as Infinity, which no store keeps: a 400 naming it, not a 200 and a null.
      for (const rawBody of ['{"userId":"u","attributes":{"n":1e400}}', '[{"type":"user","userId":"u","attributes":{"list":[1,-1e999]}}]']) {
        const path = rawBody.startsWith('[') ? '/bulk' : '/user';
        const infinite = await h().request('POST', path, { key: h().envs.development.publishableKey, rawBody });
        expect(infinite.status).toBe(400);
        expect(infinite.body.issues).toEqual({ [path === '/user' ? 'attributes.n' : '0.attributes.list.1']: ['Number out of range (beyond ±1.8e308)'] });
      }
      expect((await h().storage.entities.getMany(dev(), 'user', ['u', ''])).length).toBe(0);
    });

    it('400 for a number id past 2^53, which JSON rounds to another id; safe integers are stored as text', async () => {
      const rounded = await h().request('POST', '/user', { key: h().envs.development.publishableKey, rawBody: '{"userId":9007199254740993}' });
      expect(rounded.status).toBe(400);
      expect(Object.keys(rounded.body.issues)).toContain('userId');
      const evaluated = await h().request('GET', '/features/evaluated', { key: h().envs.development.publishableKey, query: { contextJson: '{"user":{"id":9007199254740993}}' } });
      expect(evaluated.status).toBe(400);
      expect((await post('/user', { userId: 9007199254740991 })).status).toBe(200);
      expect(await h().storage.entities.get(dev(), 'user', '9007199254740991')).toBeTruthy();
      expect((await h().storage.entities.getMany(dev(), 'user', ['9007199254740992'])).length).toBe(0);
    });
  });

  describe('POST /company', () => {
    it('creates the company and associates the user', async () => {
      await post('/company', { companyId: 'c1', userId: 'u1', attributes: { plan: 'pro' } });
      await post('/company', { companyId: 'c1', userId: 9 });
      expect((await h().storage.entities.get(dev(), 'company', 'c1'))!.attributes).toEqual({ plan: 'pro' });
      expect(await h().storage.entities.listCompanyUsers(dev(), 'c1')).toEqual(['9', 'u1']);
    });

    it('creates the associated user when it is new, and leaves a stored one as it was', async () => {
      await post('/user', { userId: 'known', attributes: { name: 'Kim' } });
      await post('/company', { companyId: 'c2', userId: 'known' });
      await post('/company', { companyId: 'c2', userId: 'fresh' });
      expect((await h().storage.entities.get(dev(), 'user', 'known'))!.attributes).toEqual({ name: 'Kim' });
      expect((await h().storage.entities.get(dev(), 'user', 'fresh'))!.attributes).toEqual({});
      const flags = await h().request('GET', `/apps/${h().appId}/envs/${dev()}/users/fresh/flags`);
      expect(flags.status).toBe(200);
    });

    it('400 without companyId or with an empty userId', async () => {
      expect((await post('/company', { userId: 'u1' })).status).toBe(400);
      expect((await post('/company', { companyId: 'c1', userId: '' })).status).toBe(400);
    });
  });

  describe('POST /event', () => {
    it('stores the event; an event named like a flag is a track of that flag', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'checkout' }]);
      await post('/event', { userId: 'u1', event: 'checkout', companyId: 'c1', attributes: { items: [1, 2] } });
      await post('/event', { userId: 'u1', event: 'custom-thing' });
      const tracks = await h().storage.events.listTracks(dev(), 10);
      expect(tracks.map((t) => [t.event, t.userId, t.companyId])).toEqual([
        ['checkout', 'u1', 'c1'],
        ['custom-thing', 'u1', null],
      ]);
      expect(tracks[0]!.attributes).toEqual({ items: [1, 2] });
      const [userStats] = await h().storage.stats.listEntityFlagStats(dev(), 'user', 'u1');
      expect(userStats).toMatchObject({ flagKey: 'checkout', trackCount: 1, checkCount: 0 });
      expect(await h().storage.stats.listEntityFlagStats(dev(), 'company', 'c1')).toHaveLength(1);
      const daily = await h().storage.stats.listFlagDailyStats([dev()], '2000-01-01');
      expect(daily).toEqual([expect.objectContaining({ flagKey: 'checkout', trackCount: 1 })]);
    });

    it('an archived flag is still a flag: its checks and its tracks both count', async () => {
      await seedFlags(h().instance, h().appId, [{ key: 'retired', archived: true }]);
      await post('/event', { userId: 'u2', event: 'retired' });
      await post('/features/events', { action: 'check', key: 'retired', evalResult: false, evalContext: { user: { id: 'u2' } } });
      const [stats] = await h().storage.stats.listEntityFlagStats(dev(), 'user', 'u2');
      expect(stats).toMatchObject({ flagKey: 'retired', trackCount: 1, checkCount: 1 });
    });

    it('400 without userId or event', async () => {
      expect((await post('/event', { event: 'x' })).status).toBe(400);
      expect((await post('/event', { userId: 'u1', event: '' })).status).toBe(400);
    });
  });

  describe('POST /features/events', () => {
    it('records checks for the user and company of evalContext; evalResult true is an exposure', async () => {
      for (const action of ['check', 'check-is-enabled', 'evaluate']) {
        const res = await post('/features/events', {
          action,
          key: 'f',
          targetingVersion: 2,
          evalContext: { user: { id: 'u1' }, company: { id: 5 } },
          evalResult: action !== 'evaluate',
          evalRuleResults: [true],
          evalMissingFields: [],
        });
        expect(res.status).toBe(200);
      }
      const checks = await h().storage.events.listChecks(dev(), 10);
      expect(checks.map((c) => [c.action, c.userId, c.companyId, c.evalResult])).toEqual([
        ['check', 'u1', '5', true],
        ['check-is-enabled', 'u1', '5', true],
        ['evaluate', 'u1', '5', false],
      ]);
      const [stats] = await h().storage.stats.listEntityFlagStats(dev(), 'company', '5');
      expect(stats).toMatchObject({ checkCount: 3, exposureCount: 2 });
    });

    it('evalResult: boolean, or an object only for check-config', async () => {
      expect((await post('/features/events', { action: 'check-config', key: 'f', evalResult: { key: 'blue', payload: 1 } })).status).toBe(200);
      expect((await post('/features/events', { action: 'check-config', key: 'f', evalResult: {} })).status).toBe(200);
      const wrong = await post('/features/events', { action: 'check', key: 'f', evalResult: { key: 'blue' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.issues).toHaveProperty('evalResult');
      expect((await post('/features/events', { action: 'check', key: 'f' })).status).toBe(400);
      expect((await post('/features/events', { action: 'check', key: 'f', evalResult: 'yes' })).status).toBe(400);
    });

    it('a config check without evalResult (the browser SDK, for a flag it does not know) is stored as {}', async () => {
      expect((await post('/features/events', { action: 'check-config', key: 'nope', evalContext: { user: { id: 'u1' } } })).status).toBe(200);
      const checks = await h().storage.events.listChecks(dev(), 10);
      expect(checks.map((c) => [c.action, c.flagKey, c.evalResult])).toEqual([['check-config', 'nope', {}]]);
      const bulk = await post('/bulk', [{ type: 'feature-flag-event', action: 'evaluate-config', key: 'nope' }]);
      expect(bulk.body.rejected).toEqual([]);
    });

    it('a timestamp, which check events do not have, is ignored: stamped on arrival, alone and in /bulk', async () => {
      const before = Date.now();
      const odd = ['garbage', '2099-01-01T00:00:00Z', 12, 1e20, { a: 1 }];
      for (const timestamp of odd) {
        expect((await post('/features/events', { action: 'check', key: 'f', evalResult: true, timestamp })).status).toBe(200);
      }
      const bulk = await post('/bulk', [
        { type: 'user', userId: 'bulk-user' },
        ...odd.map((timestamp) => ({ type: 'feature-flag-event', action: 'check', key: 'f', evalResult: true, timestamp })),
      ]);
      expect(bulk.status).toBe(200);
      expect(bulk.body.rejected).toEqual([]);
      expect(await h().storage.entities.get(dev(), 'user', 'bulk-user')).toBeDefined();
      const checks = await h().storage.events.listChecks(dev(), 20);
      expect(checks).toHaveLength(odd.length * 2);
      for (const check of checks) {
        expect(Date.parse(check.timestamp)).toBeGreaterThanOrEqual(before - 1000);
        expect(Date.parse(check.timestamp)).toBeLessThanOrEqual(Date.now() + 1000);
      }
    });

    it('400 for an unknown action, a key of 0 or 256 characters; 255 is fine', async () => {
      expect((await post('/features/events', { action: 'peek', key: 'f', evalResult: true })).status).toBe(400);
      expect((await post('/features/events', { action: 'check', key: '', evalResult: true })).status).toBe(400);
      expect((await post('/features/events', { action: 'check', key: 'k'.repeat(256), evalResult: true })).status).toBe(400);
      expect((await post('/features/events', { action: 'check', key: 'k'.repeat(255), evalResult: true })).status).toBe(200);
      expect((await post('/features/events', { action: 'check', key: 'f', evalResult: true, evalRuleResults: ['x'] })).status).toBe(400);
    });
  });

  describe('POST /feedback', () => {
    const base = { userId: 'u1', score: 4 };

    it('creates feedback and answers its feedbackId; an update by feedbackId keeps what it does not send', async () => {
      const [flag] = await seedFlags(h().instance, h().appId, [{ key: 'checkout' }]);
      const created = await post('/feedback', { ...base, key: 'checkout', source: 'widget', companyId: 'c1' });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({ success: true, feedbackId: expect.any(String) });
      const id = created.body.feedbackId;
      const updated = await post('/feedback', { feedbackId: id, userId: 'u1', comment: 'Great' });
      expect(updated.body.feedbackId).toBe(id);
      const [row] = await h().storage.feedback.listByEnv(dev(), 10);
      expect(row).toMatchObject({ id, score: 4, comment: 'Great', flagKey: 'checkout', featureId: flag!.id, source: 'widget', companyId: 'c1' });
    });

    it("400 for an update of another user's feedback, which stays as it was, in /feedback and in /bulk", async () => {
      const id = (await post('/feedback', { userId: 'alice', score: 5, comment: 'love it' })).body.feedbackId;
      const takeover = await post('/feedback', { feedbackId: id, userId: 'mallory', score: 1 });
      expect(takeover.status).toBe(400);
      expect(takeover.body.issues).toEqual({ feedbackId: ['feedbackId names feedback of another user'] });
      const bulk = await post('/bulk', [
        { type: 'feedback', feedbackId: id, userId: 'mallory', score: 1 },
        { type: 'feedback', feedbackId: id, userId: 'alice', comment: 'still love it' },
      ]);
      expect(bulk.status).toBe(200);
      expect(bulk.body.rejected).toEqual([{ index: 0, issues: { feedbackId: ['feedbackId names feedback of another user'] } }]);
      const rows = await h().storage.feedback.listByEnv(dev(), 10);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id, userId: 'alice', score: 5, comment: 'still love it' });
    });

    it('at least one of score and comment', async () => {
      const res = await post('/feedback', { userId: 'u1', key: 'x' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.issues)).toEqual(expect.arrayContaining(['score', 'comment']));
      expect((await post('/feedback', { userId: 'u1', comment: 'only a comment' })).status).toBe(200);
    });

    it('limits ±1: score ≤ 5, comment 1..4000, question 1..256, promptedQuestion 1..256, promptId 10..40, featureId 1..14, key 1..255', async () => {
      const cases: Array<[Record<string, unknown>, number]> = [
        [{ score: 5 }, 200],
        [{ score: 6 }, 400],
        [{ score: 1 }, 200],
        [{ score: 0 }, 400],
        [{ comment: 'c'.repeat(4000) }, 200],
        [{ comment: 'c'.repeat(4001) }, 400],
        [{ comment: '' }, 400],
        [{ question: 'q'.repeat(256) }, 200],
        [{ question: 'q'.repeat(257) }, 400],
        [{ question: '' }, 400],
        [{ promptedQuestion: 'q'.repeat(256) }, 200],
        [{ promptedQuestion: 'q'.repeat(257) }, 400],
        [{ promptId: 'p'.repeat(10) }, 200],
        [{ promptId: 'p'.repeat(9) }, 400],
        [{ promptId: 'p'.repeat(40) }, 200],
        [{ promptId: 'p'.repeat(41) }, 400],
        [{ featureId: 'f'.repeat(14) }, 200],
        [{ featureId: 'f'.repeat(15) }, 400],
        [{ featureId: '' }, 400],
        [{ key: 'k'.repeat(255) }, 200],
        [{ key: 'k'.repeat(256) }, 400],
        [{ feedbackId: '' }, 400],
        [{ userId: '' }, 400],
        [{ source: 'api' }, 200],
        [{ source: 'sdk' }, 200],
        [{ source: 'widget' }, 200],
        [{ source: 'prompt' }, 200],
        [{ source: 'email' }, 400],
      ];
      for (const [extra, status] of cases) {
        const res = await post('/feedback', { ...base, ...extra });
        expect(res.status, JSON.stringify(extra).slice(0, 80)).toBe(status);
      }
    });
  });
});
