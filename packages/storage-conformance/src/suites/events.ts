import type { Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { at, checkEvent, environment, feedback, promptEvent, seedBase, trackEvent } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { expectConflict } from '../util.js';

async function seedEnvs(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
}

/** Ids and timestamps deliberately out of insertion order: lists must follow insertion, not ids or time. */
export async function checkEventLogs(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const repo = storage.events;
  expect(await repo.listTracks('env_a', 10), 'listTracks of an empty log').toEqual([]);

  const tracks = [
    trackEvent({ id: 'trk_m', timestamp: at(5) }),
    trackEvent({ id: 'trk_c', companyId: 'comp_a', timestamp: at(1), attributes: {} }),
    trackEvent({ id: 'trk_x', envId: 'env_b' }),
    trackEvent({ id: 'trk_a', timestamp: at(3), event: 'other' }),
    trackEvent({ id: 'trk_z', timestamp: at(0) }),
  ];
  await repo.insertTracks(tracks.slice(0, 3));
  await repo.insertTracks([]);
  await repo.insertTracks(tracks.slice(3));
  const envA = tracks.filter((t) => t.envId === 'env_a');
  expect(await repo.listTracks('env_a', 100), 'listTracks: rows of the environment, in insertion order').toEqual(envA);
  expect(await repo.listTracks('env_a', 2), 'listTracks: bounded by limit').toEqual(envA.slice(0, 2));
  expect(await repo.listTracks('env_b', 100), 'listTracks is per environment').toEqual([tracks[2]]);

  const checks = [
    checkEvent({ id: 'chk_q' }),
    checkEvent({ id: 'chk_b', action: 'check-config', evalResult: { key: 'blue', payload: { a: [1] } }, timestamp: at(-1) }),
    checkEvent({
      id: 'chk_a',
      targetingVersion: null,
      userId: null,
      companyId: null,
      evalContext: null,
      evalResult: false,
      evalRuleResults: null,
      evalMissingFields: null,
    }),
  ];
  await repo.insertChecks([checks[0]!]);
  await repo.insertChecks([]);
  await repo.insertChecks(checks.slice(1));
  expect(await repo.listChecks('env_a', 100), 'listChecks: insertion order, every field (JSON, nulls)').toEqual(checks);
  expect(await repo.listChecks('env_a', 1), 'listChecks: bounded by limit').toEqual([checks[0]]);
  expect(await repo.listChecks('env_b', 100), 'listChecks is per environment').toEqual([]);

  const prompts = [
    promptEvent({ id: 'prm_k' }),
    promptEvent({ id: 'prm_b', featureId: null, promptId: null, promptedQuestion: null, action: 'dismissed' }),
  ];
  await repo.insertPromptEvents(prompts);
  await repo.insertPromptEvents([]);
  expect(await repo.listPromptEvents('env_a', 100), 'listPromptEvents: insertion order').toEqual(prompts);
  expect(await repo.listPromptEvents('env_a', 1), 'listPromptEvents: bounded by limit').toEqual([prompts[0]]);
  expect(await repo.listPromptEvents('env_b', 100), 'listPromptEvents is per environment').toEqual([]);
}

export async function checkEventIdsUnique(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const repo = storage.events;
  await repo.insertTracks([trackEvent({ id: 'trk_a' })]);
  await repo.insertChecks([checkEvent({ id: 'chk_a' })]);
  await repo.insertPromptEvents([promptEvent({ id: 'prm_a' })]);
  const before = await storage.dump();
  await expectConflict(repo.insertTracks([trackEvent({ id: 'trk_b' }), trackEvent({ id: 'trk_a' })]), 'insertTracks with an existing id');
  await expectConflict(
    repo.insertPromptEvents([promptEvent({ id: 'prm_b' }), promptEvent({ id: 'prm_a' })]),
    'insertPromptEvents with an existing id',
  );
  await expectConflict(repo.insertTracks([trackEvent({ id: 'trk_c' }), trackEvent({ id: 'trk_c' })]), 'insertTracks with an id twice in the batch');
  expect(await storage.dump(), 'a rejected batch writes none of its rows').toEqual(before);
}

/** The recent-checks ring: each environment keeps its newest `keep`, whatever the batches, and follows a new `keep`. */
export async function checkCheckRing(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const repo = storage.events;
  const ids = (n: number, prefix: string, envId = 'env_a') => Array.from({ length: n }, (_, i) => checkEvent({ id: `${prefix}${n - i}`, envId }));
  // Ids out of insertion order: the ring keeps the newest inserted, not the highest ids.
  const a = ids(5, 'chk_a');
  const b = ids(2, 'chk_b', 'env_b');
  await repo.insertChecks([a[0]!, b[0]!, a[1]!], 3);
  await repo.insertChecks([a[2]!, a[3]!, b[1]!, a[4]!], 3);
  expect(await repo.listChecks('env_a', 100), 'the ring keeps the newest `keep`, in insertion order').toEqual(a.slice(2));
  expect(await repo.listChecks('env_b', 100), 'the ring is per environment').toEqual(b);
  const wrap = ids(7, 'chk_w');
  for (const row of wrap) await repo.insertChecks([row], 3);
  expect(await repo.listChecks('env_a', 100), 'round and round the ring: still the newest').toEqual(wrap.slice(4));
  const big = ids(5, 'chk_g');
  await repo.insertChecks(big, 3);
  expect(await repo.listChecks('env_a', 100), 'a batch larger than the ring leaves its own newest').toEqual(big.slice(2));
  expect(await repo.listChecks('env_a', 2), 'listChecks: bounded by limit').toEqual(big.slice(2, 4));

  const one = ids(1, 'chk_s');
  await repo.insertChecks(one, 1);
  expect(await repo.listChecks('env_a', 100), 'a smaller ring: the newest `keep` once `keep` more arrived').toEqual(one);
  const grown = ids(4, 'chk_l');
  await repo.insertChecks(grown.slice(0, 2), 4);
  expect((await repo.listChecks('env_a', 100)).length, 'a larger ring never holds more than `keep`').toBeLessThanOrEqual(4);
  await repo.insertChecks(grown.slice(2), 4);
  expect(await repo.listChecks('env_a', 100), 'a larger ring: the newest `keep` once `keep` more arrived').toEqual(grown);

  await repo.insertChecks(ids(1, 'chk_z', 'env_b'), 0);
  expect(await repo.listChecks('env_b', 100), 'keep 0 empties the environment').toEqual([]);
  expect(await repo.listChecks('env_a', 100), 'other environments untouched').toEqual(grown);
  const all = ids(6, 'chk_u', 'env_b');
  await repo.insertChecks(all.slice(0, 3));
  await repo.insertChecks(all.slice(3));
  expect(await repo.listChecks('env_b', 100), 'without `keep`, every check is kept').toEqual(all);
}

/** Retention: rows before the cutoff go, oldest first, at most `limit` a call, across environments; newer stay. */
export async function checkPruneEvents(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const tracks = [trackEvent({ id: 'trk_new', timestamp: at(5) }), trackEvent({ id: 'trk_old', timestamp: at(1) }), trackEvent({ id: 'trk_b', envId: 'env_b', timestamp: at(2) })];
  const prompts = [promptEvent({ id: 'prm_old', timestamp: at(0) }), promptEvent({ id: 'prm_new', timestamp: at(4) })];
  const kept = feedback({ id: 'fb_new', createdAt: at(6), updatedAt: at(6) });
  await storage.events.insertTracks(tracks);
  await storage.events.insertPromptEvents(prompts);
  await storage.feedback.put(feedback({ id: 'fb_old', createdAt: at(2), updatedAt: at(7) }));
  await storage.feedback.put(kept);
  expect(await storage.pruneEvents(at(3), 0), 'pruneEvents with limit 0 deletes nothing').toBe(0);
  expect(await storage.pruneEvents(at(3), 1), 'pruneEvents deletes at most `limit`').toBe(1);
  expect((await storage.events.listTracks('env_a', 10)).map((t) => t.id), 'the oldest track went first').toEqual(['trk_new']);
  expect(await storage.pruneEvents(at(3), 2), 'pruneEvents: the next batch').toBe(2);
  expect(await storage.pruneEvents(at(3), 2), 'pruneEvents: the rest').toBe(1);
  expect(await storage.pruneEvents(at(3), 2), 'pruneEvents: nothing left before the cutoff').toBe(0);
  expect(await storage.events.listTracks('env_a', 10), 'tracks at or after the cutoff are kept').toEqual([tracks[0]]);
  expect(await storage.events.listTracks('env_b', 10), 'every environment is pruned').toEqual([]);
  expect(await storage.events.listPromptEvents('env_a', 10), 'prompt events after the cutoff are kept').toEqual([prompts[1]]);
  expect(await storage.feedback.listByEnv('env_a', 10), 'feedback created before the cutoff goes, newer stays').toEqual([kept]);
}

export async function checkFeedback(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const repo = storage.feedback;
  expect(await repo.get('env_a', 'fb_missing'), 'feedback.get of a missing row').toBeUndefined();
  const rows = [
    feedback({ id: 'fb_b', createdAt: at(1), updatedAt: at(1) }),
    feedback({ id: 'fb_a', createdAt: at(3), updatedAt: at(3), score: null, comment: null, companyId: null, flagKey: null }),
    feedback({ id: 'fb_c', createdAt: at(2), updatedAt: at(2), source: 'widget', featureId: 'flag_a', promptId: 'prompt_a' }),
    feedback({ id: 'fb_a', envId: 'env_b', createdAt: at(9), updatedAt: at(9) }),
  ];
  for (const row of rows) await repo.put(row);
  expect(await repo.get('env_a', 'fb_a'), 'feedback.get returns the row').toEqual(rows[1]);
  expect(await repo.get('env_b', 'fb_a'), 'feedback ids are per environment').toEqual(rows[3]);
  expect(await repo.listByEnv('env_a', 10), 'feedback.listByEnv: newest first').toEqual([rows[1], rows[2], rows[0]]);
  expect(await repo.listByEnv('env_a', 2), 'feedback.listByEnv: bounded by limit').toEqual([rows[1], rows[2]]);

  const updated = { ...rows[0]!, score: 5, comment: 'Changed my mind', updatedAt: at(4) };
  await repo.put(updated);
  expect(await repo.get('env_a', 'fb_b'), 'feedback.put replaces the row of (envId, id)').toEqual(updated);
  expect(await repo.listByEnv('env_a', 10), 'a replacing put adds no row').toHaveLength(3);
  expect(await repo.listByEnv('env_missing', 10), 'feedback.listByEnv of an unknown environment').toEqual([]);
}

export const eventChecks: CheckGroup = {
  name: 'events and feedback',
  checks: [
    { name: 'tracks, checks, prompt events: insertion order, limit, per environment', run: checkEventLogs },
    { name: 'event ids are unique; a rejected batch writes nothing', run: checkEventIdsUnique },
    { name: 'recent-checks ring: insertChecks with keep holds the newest `keep` per environment', run: checkCheckRing },
    { name: 'feedback: get, put replaces, listByEnv newest first', run: checkFeedback },
    { name: 'retention: pruneEvents deletes the oldest before the cutoff, in bounded batches', run: checkPruneEvents },
  ],
};
