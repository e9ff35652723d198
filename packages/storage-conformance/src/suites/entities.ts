import type { EntityType, Storage } from '@flagmount/core';
import { expect } from 'vitest';
import {
  at,
  day,
  entity,
  entityFlagStats,
  environment,
  flag,
  flagDailyStats,
  membership,
  seedBase,
  specificTarget,
} from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { compare } from '../util.js';

const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => compare(a.id, b.id));

export async function checkEntities(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
  const repo = storage.entities;
  expect(await repo.get('env_a', 'user', 'user_a'), 'entities.get of a missing entity').toBeUndefined();

  const user = entity({ id: 'user_a' });
  const company = entity({ type: 'company', id: 'user_a', name: null, attributes: {} });
  const other = entity({ id: 'user_b', name: null, attributes: { n: 1 } });
  await repo.put(user);
  await repo.put(company);
  await repo.put(other);
  await repo.put(entity({ envId: 'env_b', id: 'user_c' }));
  expect(await repo.get('env_a', 'user', 'user_a'), 'entities.get returns the row, attributes included').toEqual(user);
  expect(await repo.get('env_a', 'company', 'user_a'), 'a user and a company may share an id').toEqual(company);
  expect(await repo.get('env_b', 'user', 'user_a'), 'entities are per environment').toBeUndefined();

  const replacement = entity({ id: 'user_a', name: 'Ada L.', attributes: { only: 'this' }, updatedAt: at(7) });
  await repo.put(replacement);
  expect(await repo.get('env_a', 'user', 'user_a'), 'entities.put replaces the whole row (attributes too)').toEqual(replacement);

  const many = await repo.getMany('env_a', 'user', ['user_b', 'user_missing', 'user_a', 'user_c']);
  expect(byId(many), 'entities.getMany: the found ones; missing (and other env) absent').toEqual([replacement, other]);
  expect(await repo.getMany('env_a', 'company', ['user_a']), 'getMany matches the type').toEqual([company]);
  expect(await repo.getMany('env_a', 'user', []), 'entities.getMany of no ids').toEqual([]);
}

export async function checkMemberships(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
  const users = ['user_c', 'user_a', 'user_b'];
  for (const id of users) await storage.entities.put(entity({ id }));
  for (const id of ['comp_b', 'comp_a']) await storage.entities.put(entity({ type: 'company', id }));
  await storage.entities.put(entity({ envId: 'env_b', id: 'user_a' }));
  await storage.entities.put(entity({ envId: 'env_b', type: 'company', id: 'comp_a' }));

  const repo = storage.entities;
  for (const userId of users) await repo.addMembership(membership({ companyId: 'comp_a', userId }));
  await repo.addMembership(membership({ companyId: 'comp_b', userId: 'user_a' }));
  await repo.addMembership(membership({ companyId: 'comp_a', userId: 'user_a', createdAt: at(9) }));
  await repo.addMembership(membership({ envId: 'env_b', companyId: 'comp_a', userId: 'user_a' }));

  expect(await repo.listCompanyUsers('env_a', 'comp_a'), 'listCompanyUsers: ascending, each once (addMembership is idempotent)').toEqual([
    'user_a',
    'user_b',
    'user_c',
  ]);
  expect(await repo.listUserCompanies('env_a', 'user_a'), 'listUserCompanies: ascending').toEqual(['comp_a', 'comp_b']);
  expect(await repo.listUserCompanies('env_b', 'user_a'), 'memberships are per environment').toEqual(['comp_a']);
  expect(await repo.listCompanyUsers('env_a', 'comp_missing'), 'listCompanyUsers of an unknown company').toEqual([]);
  expect(await repo.listUserCompanies('env_a', 'user_missing'), 'listUserCompanies of an unknown user').toEqual([]);
}

/** Builds user_a, user_b, comp_a in env_a (and a twin user_a in env_b) with memberships, overrides and stats. */
async function seedEntityGraph(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
  await storage.flags.insert(flag());
  await storage.flags.insert(flag({ id: 'flag_b' }));
  const graph: Array<[string, EntityType, string]> = [
    ['env_a', 'user', 'user_a'],
    ['env_a', 'user', 'user_b'],
    ['env_a', 'company', 'comp_a'],
    ['env_b', 'user', 'user_a'],
    ['env_b', 'company', 'comp_a'],
  ];
  for (const [envId, type, id] of graph) {
    await storage.entities.put(entity({ envId, type, id }));
    await storage.specificTargets.add(specificTarget({ envId, entityType: type, entityId: id }));
    await storage.stats.mergeEntityFlagStats([entityFlagStats({ envId, entityType: type, entityId: id, checkCount: 1 })]);
  }
  await storage.entities.addMembership(membership({ userId: 'user_a' }));
  await storage.entities.addMembership(membership({ userId: 'user_b' }));
  await storage.entities.addMembership(membership({ envId: 'env_b', userId: 'user_a' }));
  await storage.stats.mergeFlagDailyStats([flagDailyStats({ day: day(1), checkCount: 3 })]);
}

export async function checkEntityDeleteCascade(storage: Storage): Promise<void> {
  await seedEntityGraph(storage);
  const { entities, specificTargets, stats } = storage;
  const dailyBefore = await stats.listFlagDailyStats(['env_a'], day(0));

  expect(await entities.delete('env_a', 'user', 'user_a'), 'entities.delete of an existing entity').toBe(true);
  expect(await entities.get('env_a', 'user', 'user_a'), 'a deleted entity is gone').toBeUndefined();
  expect(await entities.listUserCompanies('env_a', 'user_a'), 'delete removes the user’s memberships').toEqual([]);
  expect(await entities.listCompanyUsers('env_a', 'comp_a'), 'other members stay').toEqual(['user_b']);
  expect(await specificTargets.listForEntity('env_a', 'user', 'user_a'), 'delete removes the entity’s overrides').toEqual([]);
  expect(await stats.listEntityFlagStats('env_a', 'user', 'user_a'), 'delete removes the entity’s stats').toEqual([]);

  expect(await entities.get('env_a', 'company', 'comp_a'), 'the company stays').toBeDefined();
  expect(await specificTargets.listForEntity('env_a', 'company', 'comp_a'), 'the company’s overrides stay').toHaveLength(1);
  expect(await specificTargets.listForEntity('env_a', 'user', 'user_b'), 'other users’ overrides stay').toHaveLength(1);
  expect(await stats.listEntityFlagStats('env_a', 'user', 'user_b'), 'other users’ stats stay').toHaveLength(1);
  expect(await entities.get('env_b', 'user', 'user_a'), 'the same id in another environment stays').toBeDefined();
  expect(await entities.listUserCompanies('env_b', 'user_a'), 'memberships in another environment stay').toEqual(['comp_a']);
  expect(await specificTargets.listForEntity('env_b', 'user', 'user_a'), 'overrides in another environment stay').toHaveLength(1);
  expect(await stats.listEntityFlagStats('env_b', 'user', 'user_a'), 'stats in another environment stay').toHaveLength(1);
  expect(await stats.listFlagDailyStats(['env_a'], day(0)), 'daily flag stats are not per entity and stay').toEqual(dailyBefore);
  expect(await entities.delete('env_a', 'user', 'user_a'), 'entities.delete of a missing entity').toBe(false);

  expect(await entities.delete('env_a', 'company', 'comp_a'), 'delete a company').toBe(true);
  expect(await entities.listCompanyUsers('env_a', 'comp_a'), 'delete removes the company’s memberships').toEqual([]);
  expect(await entities.listUserCompanies('env_a', 'user_b'), 'its members lose the membership').toEqual([]);
  expect(await entities.get('env_a', 'user', 'user_b'), 'its members stay').toBeDefined();
  expect(await specificTargets.listForEntity('env_a', 'company', 'comp_a'), 'the company’s overrides go').toEqual([]);
  expect(await stats.listEntityFlagStats('env_a', 'company', 'comp_a'), 'the company’s stats go').toEqual([]);
  expect(await specificTargets.listByEnv('env_a'), 'only user_b’s override is left').toEqual([
    specificTarget({ entityId: 'user_b' }),
  ]);
}

export async function checkEntitySearch(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.environments.insert(environment({ id: 'env_b' }));
  const repo = storage.entities;
  const put = (o: Parameters<typeof entity>[0]) => repo.put(entity(o));
  await put({ id: 'u-2', name: 'Grace Hopper' });
  await put({ id: 'U-10', name: null });
  await put({ id: 'u-1', name: 'Ada Lovelace' });
  await put({ id: 'x_50%', name: 'Percent' });
  await put({ type: 'company', id: 'u-3', name: 'Acme' });
  await put({ envId: 'env_b', id: 'u-4' });
  const ids = async (search: string, limit = 10, after?: string) =>
    (await repo.search('env_a', 'user', { search, limit, ...(after !== undefined ? { after } : {}) })).map((e) => e.id);
  expect(await ids(''), 'empty search: every entity of that type and environment, by id').toEqual(['U-10', 'u-1', 'u-2', 'x_50%']);
  expect(await ids('u-'), 'id prefix, ASCII letters case-insensitive').toEqual(['U-10', 'u-1', 'u-2']);
  expect(await ids('HOPPER'), 'name substring, case-insensitive').toEqual(['u-2']);
  expect(await ids('-1'), 'the id matches from its start only').toEqual([]);
  expect(await ids('x_5'), '_ matches itself').toEqual(['x_50%']);
  expect(await ids('x%'), '% matches itself').toEqual([]);
  expect(await ids('', 2), 'at most limit').toEqual(['U-10', 'u-1']);
  expect(await ids('', 2, 'u-1'), 'after an id').toEqual(['u-2', 'x_50%']);
  expect(await repo.search('env_a', 'user', { search: 'ada', limit: 5 }), 'whole rows').toEqual([entity({ id: 'u-1', name: 'Ada Lovelace' })]);
}

export const entityChecks: CheckGroup = {
  name: 'entities',
  checks: [
    { name: 'get, put replaces the whole row, getMany', run: checkEntities },
    { name: 'memberships: idempotent add, ascending lists', run: checkMemberships },
    { name: 'delete cascades to memberships, overrides and stats of that entity only', run: checkEntityDeleteCascade },
    { name: 'search: id prefix or name substring, by id, limit and after', run: checkEntitySearch },
  ],
};
