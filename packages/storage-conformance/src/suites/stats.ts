import type { Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { at, day, entityFlagStats, environment, flagDailyStats, seedBase } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { compare } from '../util.js';

async function seedEnvs(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
}

export async function checkEntityFlagStatsMerge(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const repo = storage.stats;
  expect(await repo.listEntityFlagStats('env_a', 'user', 'user_a'), 'listEntityFlagStats with no rows').toEqual([]);

  const first = entityFlagStats({
    flagKey: 'key_b',
    firstExposureAt: at(10),
    lastExposureAt: at(10),
    exposureCount: 1,
    lastCheckAt: at(10),
    checkCount: 2,
  });
  await repo.mergeEntityFlagStats([first]);
  expect(await repo.listEntityFlagStats('env_a', 'user', 'user_a'), 'the first delta becomes the row').toEqual([first]);

  await repo.mergeEntityFlagStats([
    entityFlagStats({ flagKey: 'key_b', firstExposureAt: at(5), lastExposureAt: at(5), exposureCount: 2, lastCheckAt: at(20), checkCount: 3 }),
    entityFlagStats({ flagKey: 'key_b', firstTrackAt: at(30), lastTrackAt: at(30), trackCount: 1 }),
    entityFlagStats({ flagKey: 'key_b', firstTrackAt: at(25), lastTrackAt: at(28), trackCount: 4 }),
    entityFlagStats({ flagKey: 'key_a', checkCount: 1, lastCheckAt: at(1) }),
    entityFlagStats({ flagKey: 'key_a', entityType: 'company', checkCount: 7 }),
    entityFlagStats({ flagKey: 'key_a', envId: 'env_b', checkCount: 9 }),
  ]);
  expect(await repo.listEntityFlagStats('env_a', 'user', 'user_a'), 'merge: counts add, first* earliest, last* latest, null never wins; by flagKey').toEqual([
    entityFlagStats({ flagKey: 'key_a', checkCount: 1, lastCheckAt: at(1) }),
    entityFlagStats({
      flagKey: 'key_b',
      firstExposureAt: at(5),
      lastExposureAt: at(10),
      exposureCount: 3,
      lastCheckAt: at(20),
      checkCount: 5,
      firstTrackAt: at(25),
      lastTrackAt: at(30),
      trackCount: 5,
    }),
  ]);
  expect(await repo.listEntityFlagStats('env_a', 'company', 'user_a'), 'stats are per entity type').toEqual([
    entityFlagStats({ flagKey: 'key_a', entityType: 'company', checkCount: 7 }),
  ]);
  expect(await repo.listEntityFlagStats('env_b', 'user', 'user_a'), 'stats are per environment').toEqual([
    entityFlagStats({ flagKey: 'key_a', envId: 'env_b', checkCount: 9 }),
  ]);
  await repo.mergeEntityFlagStats([]);
}

export async function checkFlagDailyStatsMerge(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const repo = storage.stats;
  expect(await repo.listFlagDailyStats(['env_a'], day(0)), 'listFlagDailyStats with no rows').toEqual([]);
  await repo.mergeFlagDailyStats([
    flagDailyStats({ flagKey: 'key_b', day: day(2), checkCount: 1, exposureCount: 1, lastCheckAt: at(2 * 86_400 + 50) }),
    flagDailyStats({ flagKey: 'key_b', day: day(0), trackCount: 2, lastTrackAt: at(60) }),
    flagDailyStats({ flagKey: 'key_a', day: day(1), checkCount: 4, exposureCount: 4, lastCheckAt: at(86_400 + 10) }),
    flagDailyStats({ envId: 'env_b', flagKey: 'key_a', day: day(1), checkCount: 8, lastCheckAt: at(86_400 + 70) }),
  ]);
  await repo.mergeFlagDailyStats([
    flagDailyStats({ flagKey: 'key_b', day: day(2), checkCount: 2, exposureCount: 2, lastCheckAt: at(2 * 86_400 + 40), trackCount: 1, lastTrackAt: at(2 * 86_400 + 5) }),
    flagDailyStats({ flagKey: 'key_b', day: day(2), checkCount: 3, lastCheckAt: at(2 * 86_400 + 90) }),
  ]);
  const keyB2 = flagDailyStats({
    flagKey: 'key_b',
    day: day(2),
    checkCount: 6,
    // Exposures add like checks (1 + 2 + 0), independently of them.
    exposureCount: 3,
    lastCheckAt: at(2 * 86_400 + 90),
    trackCount: 1,
    lastTrackAt: at(2 * 86_400 + 5),
  });
  const keyB0 = flagDailyStats({ flagKey: 'key_b', day: day(0), trackCount: 2, lastTrackAt: at(60) });
  const keyA1 = flagDailyStats({ flagKey: 'key_a', day: day(1), checkCount: 4, exposureCount: 4, lastCheckAt: at(86_400 + 10) });
  const envB = flagDailyStats({ envId: 'env_b', flagKey: 'key_a', day: day(1), checkCount: 8, lastCheckAt: at(86_400 + 70) });

  expect(await repo.listFlagDailyStats(['env_a'], day(0)), 'merge per (env, flag, day); listed by envId, flagKey, day').toEqual([
    keyA1,
    keyB0,
    keyB2,
  ]);
  expect(await repo.listFlagDailyStats(['env_a'], day(1)), 'sinceDay is inclusive').toEqual([keyA1, keyB2]);
  expect(await repo.listFlagDailyStats(['env_b', 'env_a'], day(2)), 'several environments').toEqual([keyB2]);
  expect(await repo.listFlagDailyStats(['env_a', 'env_b'], day(0)), 'by envId first').toEqual([keyA1, keyB0, keyB2, envB]);
  expect(await repo.listFlagDailyStats([], day(0)), 'no environments, no rows').toEqual([]);
  await repo.mergeFlagDailyStats([]);
}

/**
 * Exposures per day (issue 37): a day's exposures are the checks whose result was true. They merge like the other
 * counts, each delta adding to the row of its own day, and a row written without exposures keeps 0, never null.
 */
export async function checkFlagDailyExposures(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const repo = storage.stats;
  await repo.mergeFlagDailyStats([flagDailyStats({ flagKey: 'key_a', day: day(0), checkCount: 3, lastCheckAt: at(10) })]);
  await storage.transaction(async (tx) => {
    await tx.stats.mergeFlagDailyStats([
      flagDailyStats({ flagKey: 'key_a', day: day(0), checkCount: 2, exposureCount: 2, lastCheckAt: at(20) }),
      flagDailyStats({ flagKey: 'key_a', day: day(1), checkCount: 1, exposureCount: 1, lastCheckAt: at(86_400 + 1) }),
      flagDailyStats({ flagKey: 'key_a', day: day(1), trackCount: 4, lastTrackAt: at(86_400 + 2) }),
    ]);
  });
  const exposures = async () =>
    (await repo.listFlagDailyStats(['env_a'], day(0))).map(({ day: d, checkCount, exposureCount, trackCount }) => [d, checkCount, exposureCount, trackCount]);
  expect(await exposures(), 'a row without exposures reads 0; exposures add per day, in a transaction too').toEqual([
    [day(0), 5, 2, 0],
    [day(1), 1, 1, 4],
  ]);
  // A failed transaction adds no exposure.
  await storage
    .transaction(async (tx) => {
      await tx.stats.mergeFlagDailyStats([flagDailyStats({ flagKey: 'key_a', day: day(0), checkCount: 9, exposureCount: 9, lastCheckAt: at(30) })]);
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  expect(await exposures(), 'a rolled-back merge leaves exposures as they were').toEqual([
    [day(0), 5, 2, 0],
    [day(1), 1, 1, 4],
  ]);
  const [total] = await repo.listFlagTotals(['env_a']);
  expect([total?.checkCount, total?.exposureCount, total?.trackCount], 'totals sum exposures over days').toEqual([6, 3, 4]);
}

export async function checkFlagTotals(storage: Storage): Promise<void> {
  await seedEnvs(storage);
  const repo = storage.stats;
  expect(await repo.listFlagTotals(['env_a']), 'listFlagTotals with no rows').toEqual([]);
  await repo.mergeFlagDailyStats([
    flagDailyStats({ flagKey: 'key_a', day: day(0), checkCount: 2, exposureCount: 1, lastCheckAt: at(100), trackCount: 1, lastTrackAt: at(200) }),
    flagDailyStats({ flagKey: 'key_a', day: day(3), checkCount: 5, exposureCount: 5, lastCheckAt: at(3 * 86_400), trackCount: 0, lastTrackAt: null }),
    flagDailyStats({ flagKey: 'key_a', day: day(1), checkCount: 1, lastCheckAt: at(86_400) }),
    flagDailyStats({ flagKey: 'key_b', day: day(1), trackCount: 3, lastTrackAt: at(86_400 + 5) }),
    flagDailyStats({ envId: 'env_b', flagKey: 'key_a', day: day(0), checkCount: 10, exposureCount: 7, lastCheckAt: at(9) }),
  ]);
  const totals = (await repo.listFlagTotals(['env_a', 'env_b']))
    .map(({ envId, flagKey, checkCount, exposureCount, trackCount, lastCheckAt, lastTrackAt }) => ({ envId, flagKey, checkCount, exposureCount, trackCount, lastCheckAt, lastTrackAt }))
    .sort((a, b) => compare(a.envId, b.envId) || compare(a.flagKey, b.flagKey));
  expect(totals, 'listFlagTotals: one row per (env, flag), counts (exposures too) summed, latest check/track over all days').toEqual([
    { envId: 'env_a', flagKey: 'key_a', checkCount: 8, exposureCount: 6, trackCount: 1, lastCheckAt: at(3 * 86_400), lastTrackAt: at(200) },
    { envId: 'env_a', flagKey: 'key_b', checkCount: 0, exposureCount: 0, trackCount: 3, lastCheckAt: null, lastTrackAt: at(86_400 + 5) },
    { envId: 'env_b', flagKey: 'key_a', checkCount: 10, exposureCount: 7, trackCount: 0, lastCheckAt: at(9), lastTrackAt: null },
  ]);
  expect((await repo.listFlagTotals(['env_b'])).map((r) => r.flagKey), 'listFlagTotals is per environment').toEqual(['key_a']);
  expect(await repo.listFlagTotals([]), 'no environments, no totals').toEqual([]);
}

export const statsChecks: CheckGroup = {
  name: 'stats',
  checks: [
    { name: 'entity flag stats merge (counts add, first* earliest, last* latest) and list order', run: checkEntityFlagStatsMerge },
    { name: 'daily flag stats merge, sinceDay inclusive, list order', run: checkFlagDailyStatsMerge },
    { name: 'flag totals sum over days, latest timestamps', run: checkFlagTotals },
    { name: 'daily exposures merge per day, default 0, roll back with their transaction', run: checkFlagDailyExposures },
  ],
};
