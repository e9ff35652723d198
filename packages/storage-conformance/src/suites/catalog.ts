import type { Storage } from '@flagmount/core';
import type { Filter } from '../fixtures.js';
import { expect } from 'vitest';
import { app, at, entity, environment, flag, seedBase, segment, specificTarget, stage, targeting } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { each, expectConflict, shuffled } from '../util.js';

export async function checkStages(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.apps.insert(app({ id: 'app_b' }));
  const repo = storage.stages;
  expect(await repo.get('stage_missing'), 'stages.get of a missing id').toBeUndefined();
  const rows = [
    stage({ id: 'stage_c', order: 0 }),
    stage({ id: 'stage_a', order: 1, name: 'Beta', color: '#ff0000' }),
    stage({ id: 'stage_b', order: 0 }),
    stage({ id: 'stage_d', order: 0, appId: 'app_b' }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));
  expect(await repo.get('stage_a'), 'stages.get returns the inserted row').toEqual(rows[1]);
  expect((await repo.listByApp('app_a')).map((s) => s.id), 'stages.listByApp: by order, then id').toEqual([
    'stage_b',
    'stage_c',
    'stage_a',
  ]);
  await expectConflict(repo.insert(stage({ id: 'stage_a' })), 'stages.insert duplicate id');
  expect(await repo.update('stage_a', { name: 'GA', order: 9 }), 'stages.update').toBe(true);
  expect(await repo.get('stage_a'), 'stages.update changes only the patched fields').toEqual({ ...rows[1], name: 'GA', order: 9 });
  expect(await repo.update('stage_missing', { name: 'X' }), 'stages.update of a missing row').toBe(false);
  expect(await repo.delete('stage_c'), 'stages.delete of an existing row').toBe(true);
  expect(await repo.get('stage_c'), 'a deleted stage is gone').toBeUndefined();
  expect(await repo.delete('stage_c'), 'stages.delete of a missing row').toBe(false);
  expect((await repo.listByApp('app_a')).map((s) => s.id), 'stages.listByApp after delete').toEqual(['stage_b', 'stage_a']);
}

export async function checkSegments(storage: Storage): Promise<void> {
  await seedBase(storage);
  const repo = storage.segments;
  expect(await repo.get('seg_missing'), 'segments.get of a missing id').toBeUndefined();
  const rows = [
    segment({ id: 'seg_c', createdAt: at(1) }),
    segment({ id: 'seg_all', type: 'all', name: 'All', filter: { type: 'constant', value: true }, createdAt: at(1) }),
    segment({ id: 'seg_a', createdAt: at(2) }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));
  expect(await repo.get('seg_c'), 'segments.get returns the inserted row, filter included').toEqual(rows[0]);
  expect((await repo.listByApp('app_a')).map((s) => s.id), 'segments.listByApp: by creation time, then id').toEqual([
    'seg_all',
    'seg_c',
    'seg_a',
  ]);
  expect(await repo.listByApp('app_missing'), 'segments.listByApp of an unknown app').toEqual([]);
  await expectConflict(repo.insert(segment({ id: 'seg_a' })), 'segments.insert duplicate id');
  const filter: Filter = { type: 'negation', filter: { type: 'context', field: 'company.tier', operator: 'IS', values: ['1'] } };
  expect(await repo.update('seg_a', { filter, name: 'Not tier 1', updatedAt: at(9) }), 'segments.update').toBe(true);
  expect(await repo.get('seg_a'), 'segments.update changes only the patched fields').toEqual({
    ...rows[2],
    filter,
    name: 'Not tier 1',
    updatedAt: at(9),
  });
  expect(await repo.update('seg_missing', { name: 'X' }), 'segments.update of a missing row').toBe(false);
  expect(await repo.delete('seg_a'), 'segments.delete of an existing row').toBe(true);
  expect(await repo.get('seg_a'), 'a deleted segment is gone').toBeUndefined();
  expect(await repo.delete('seg_a'), 'segments.delete of a missing row').toBe(false);
}

export async function checkFlags(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.apps.insert(app({ id: 'app_b' }));
  await storage.stages.insert(stage());
  const repo = storage.flags;
  expect(await repo.get('flag_missing'), 'flags.get of a missing id').toBeUndefined();
  expect(await repo.getByKey('app_a', 'nope'), 'flags.getByKey of a missing key').toBeUndefined();

  const full = flag({
    id: 'flag_b',
    description: 'Everything set',
    stageId: 'stage_a',
    ownerUserId: 'mem_a',
    archived: true,
    permanent: true,
    secret: true,
    createdAt: at(1),
    updatedAt: at(2),
    rolledOutToEveryoneAt: at(3),
    codeRefsCleanedUp: true,
    codeRefsMarkedCleanUserName: 'Ada',
    codeRefsMarkedCleanAt: at(4),
  });
  const rows = [flag({ id: 'flag_c', createdAt: at(1) }), full, flag({ id: 'flag_a', createdAt: at(2), parentFlagId: 'flag_b' })];
  await each(shuffled(rows), (row) => repo.insert(row));
  expect(await repo.get('flag_b'), 'flags.get returns the inserted row, every field').toEqual(full);
  expect(await repo.getByKey('app_a', 'key_flag_b'), 'flags.getByKey').toEqual(full);
  expect(await repo.getByKey('app_b', 'key_flag_b'), 'flags.getByKey is scoped to its app').toBeUndefined();
  expect(await repo.getByKey('app_a', 'KEY_FLAG_B'), 'flags.getByKey is case-sensitive').toBeUndefined();
  expect((await repo.listByApp('app_a')).map((f) => f.id), 'flags.listByApp: by creation time, then id').toEqual([
    'flag_b',
    'flag_c',
    'flag_a',
  ]);

  await expectConflict(repo.insert(flag({ id: 'flag_a', key: 'fresh_key' })), 'flags.insert duplicate id');
  await expectConflict(repo.insert(flag({ id: 'flag_d', key: 'key_flag_a' })), 'flags.insert duplicate (appId, key)');
  expect(await repo.get('flag_d'), 'a rejected insert leaves nothing').toBeUndefined();
  await repo.insert(flag({ id: 'flag_d', appId: 'app_b', key: 'key_flag_a' }));
  expect((await repo.getByKey('app_b', 'key_flag_a'))?.id, 'the same key in another app is allowed').toBe('flag_d');

  const patch = { name: 'Renamed', archived: true, stageId: 'stage_a', description: 'now described', updatedAt: at(9) };
  expect(await repo.update('flag_a', patch), 'flags.update').toBe(true);
  expect(await repo.get('flag_a'), 'flags.update changes only the patched fields').toEqual({ ...rows[2], ...patch });
  expect(await repo.update('flag_b', { description: null, stageId: null }), 'flags.update to null').toBe(true);
  expect(await repo.get('flag_b'), 'flags.update can set nullable fields to null').toEqual({ ...full, description: null, stageId: null });
  expect(await repo.update('flag_missing', { name: 'X' }), 'flags.update of a missing row').toBe(false);
}

export async function checkTargeting(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
  await each(['flag_c', 'flag_a', 'flag_b'], (id) => storage.flags.insert(flag({ id })));
  const repo = storage.targeting;
  expect(await repo.get('flag_a', 'env_a'), 'targeting.get of a missing row').toBeUndefined();
  const rows = [targeting({ flagId: 'flag_c' }), targeting({ flagId: 'flag_a', rules: [] , variants: [] }), targeting({ flagId: 'flag_b', envId: 'env_b' })];
  await each(rows, (row) => repo.put(row));
  expect(await repo.get('flag_c', 'env_a'), 'targeting.get returns the row, rules and variants included').toEqual(rows[0]);
  expect(await repo.get('flag_b', 'env_a'), 'targeting is per environment').toBeUndefined();
  expect((await repo.listByEnv('env_a')).map((t) => t.flagId), 'targeting.listByEnv: by flagId').toEqual(['flag_a', 'flag_c']);
  const next = targeting({ flagId: 'flag_a', version: 2, configVersion: 3, rules: [{ filter: { type: 'constant', value: true } }], updatedAt: at(5) });
  await repo.put(next);
  expect(await repo.get('flag_a', 'env_a'), 'targeting.put replaces the row of (flagId, envId)').toEqual(next);
  expect(await repo.listByEnv('env_a'), 'a replacing put adds no row').toHaveLength(2);
  expect(await repo.listByEnv('env_missing'), 'targeting.listByEnv of an unknown environment').toEqual([]);
}

export async function checkSpecificTargets(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
  await each(['flag_a', 'flag_b'], (id) => storage.flags.insert(flag({ id })));
  for (const [envId, type, id] of [['env_a', 'user', 'user_a'], ['env_a', 'user', 'user_b'], ['env_a', 'company', 'comp_a'], ['env_b', 'user', 'user_a']] as const) {
    await storage.entities.put(entity({ envId, type, id }));
  }
  const repo = storage.specificTargets;
  const rows = [
    specificTarget({ flagId: 'flag_b', entityId: 'user_a' }),
    specificTarget({ flagId: 'flag_a', entityId: 'user_b' }),
    specificTarget({ flagId: 'flag_a', entityType: 'company', entityId: 'comp_a' }),
    specificTarget({ flagId: 'flag_a', entityId: 'user_a', createdAt: at(3) }),
    specificTarget({ flagId: 'flag_a', envId: 'env_b', entityId: 'user_a' }),
  ];
  for (const row of shuffled(rows)) expect(await repo.add(row), 'specificTargets.add of a new override').toBe(true);
  expect(await repo.add({ ...rows[3]!, createdAt: at(8) }), 'specificTargets.add of an existing override').toBe(false);
  expect(await repo.listByEnv('env_a'), 'specificTargets.listByEnv: by flagId, entityType, entityId; an existing add changed nothing').toEqual([
    rows[2],
    rows[3],
    rows[1],
    rows[0],
  ]);
  expect(await repo.listForEntity('env_a', 'user', 'user_a'), 'specificTargets.listForEntity: by flagId').toEqual([rows[3], rows[0]]);
  expect(await repo.listForEntity('env_a', 'company', 'user_a'), 'listForEntity matches the entity type').toEqual([]);
  expect(await repo.remove('flag_a', 'env_a', 'user', 'user_a'), 'specificTargets.remove of an existing override').toBe(true);
  expect(await repo.remove('flag_a', 'env_a', 'user', 'user_a'), 'specificTargets.remove of a missing override').toBe(false);
  expect(await repo.remove('flag_a', 'env_a', 'company', 'user_b'), 'remove matches the entity type').toBe(false);
  expect(await repo.listForEntity('env_a', 'user', 'user_a'), 'a removed override is gone').toEqual([rows[0]]);
  expect(await repo.listByEnv('env_b'), 'overrides are per environment').toEqual([rows[4]]);
}

/**
 * Values as long as the API lets them be (runtime-api.md, management-api.md): a store with columns sized for short
 * text (VARCHAR(255)) would turn a valid request into a 500. Non-ASCII included: a character may be 4 bytes.
 */
export async function checkLongValues(storage: Storage): Promise<void> {
  await seedBase(storage);
  const text = (length: number) => 'ë🚀x'.repeat(Math.ceil(length / 3)).slice(0, length);
  const long = flag({ id: 'flag_long', key: 'k'.repeat(255), name: text(255), description: text(8192) });
  await storage.flags.insert(long);
  expect(await storage.flags.get('flag_long'), 'a flag with a 255-character key and name and an 8192-character description').toEqual(long);
  const user = entity({ id: 'u'.repeat(128), name: text(1000), attributes: { bio: text(10_000), tags: [text(500), text(500)] } });
  await storage.entities.put(user);
  expect(await storage.entities.get('env_a', 'user', user.id), 'an entity with a 128-character id and long attributes').toEqual(user);
}

export const catalogChecks: CheckGroup = {
  name: 'stages, segments, flags, targeting',
  checks: [
    { name: 'stages: get, listByApp order, conflict, update, delete', run: checkStages },
    { name: 'segments: get, listByApp order, conflict, update, delete', run: checkSegments },
    { name: 'flags: get, getByKey, listByApp order, (appId, key) unique, update', run: checkFlags },
    { name: 'targeting: get, put replaces, listByEnv order', run: checkTargeting },
    { name: 'specific targets: add/remove resolve whether anything changed, list orders', run: checkSpecificTargets },
    { name: 'long values: keys, names, descriptions and attributes as long as the API allows', run: checkLongValues },
  ],
};
