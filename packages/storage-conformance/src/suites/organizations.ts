import type { Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { app, at, member, organization } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { each, expectConflict, shuffled } from '../util.js';

export async function checkOrganizations(storage: Storage): Promise<void> {
  const repo = storage.organizations;
  expect(await repo.get('org_missing'), 'organizations.get of a missing id').toBeUndefined();
  expect(await repo.list(), 'organizations.list of an empty store').toEqual([]);

  const rows = [
    organization({ id: 'org_c', createdAt: at(1) }),
    organization({ id: 'org_a', createdAt: at(2) }),
    organization({ id: 'org_b', name: 'Beta', createdAt: at(1) }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));
  expect(await repo.get('org_b'), 'organizations.get returns the inserted row').toEqual(rows[2]);
  const listed = (await repo.list()).map((o) => o.id);
  expect(listed, 'organizations.list: by creation time, then id').toEqual(['org_b', 'org_c', 'org_a']);

  await expectConflict(repo.insert(organization({ id: 'org_a', name: 'Other' })), 'organizations.insert duplicate id');
  expect((await repo.get('org_a'))?.name, 'a rejected insert changes nothing').toBe('Acme');

  expect(await repo.update('org_a', { name: 'Acme Corp' }), 'organizations.update of an existing row').toBe(true);
  expect(await repo.get('org_a'), 'organizations.update changes only the patched fields').toEqual({
    ...organization({ id: 'org_a', createdAt: at(2) }),
    name: 'Acme Corp',
  });
  expect(await repo.update('org_a', { name: 'Acme Corp' }), 'update with unchanged values still finds the row').toBe(true);
  expect(await repo.update('org_missing', { name: 'X' }), 'organizations.update of a missing row').toBe(false);
  expect(await repo.get('org_missing'), 'update of a missing row creates nothing').toBeUndefined();
}

export async function checkApps(storage: Storage): Promise<void> {
  await storage.organizations.insert(organization());
  await storage.organizations.insert(organization({ id: 'org_b' }));
  const repo = storage.apps;
  expect(await repo.get('app_missing'), 'apps.get of a missing id').toBeUndefined();

  const rows = [
    app({ id: 'app_c', createdAt: at(3) }),
    app({ id: 'app_b', orgId: 'org_b', createdAt: at(1), demo: true, flagKeyFormat: 'kebabCaseLower' }),
    app({ id: 'app_a', createdAt: at(3) }),
    app({ id: 'app_d', createdAt: at(0) }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));
  expect(await repo.get('app_b'), 'apps.get returns the inserted row').toEqual(rows[1]);
  expect((await repo.list()).map((a) => a.id), 'apps.list(): every org, by creation time then id').toEqual([
    'app_d',
    'app_b',
    'app_a',
    'app_c',
  ]);
  expect((await repo.list({})).map((a) => a.id), 'apps.list({}) is apps.list()').toEqual([
    'app_d',
    'app_b',
    'app_a',
    'app_c',
  ]);
  expect((await repo.list({ orgId: 'org_a' })).map((a) => a.id), 'apps.list({ orgId })').toEqual([
    'app_d',
    'app_a',
    'app_c',
  ]);
  expect(await repo.list({ orgId: 'org_missing' }), 'apps.list of an unknown org').toEqual([]);

  await expectConflict(repo.insert(app({ id: 'app_a' })), 'apps.insert duplicate id');
  expect(await repo.update('app_a', { name: 'Renamed', demo: true, flagKeyFormat: 'camelCase' }), 'apps.update').toBe(
    true,
  );
  expect(await repo.get('app_a'), 'apps.update changes only the patched fields').toEqual({
    ...rows[2],
    name: 'Renamed',
    demo: true,
    flagKeyFormat: 'camelCase',
  });
  expect(await repo.update('app_missing', { name: 'X' }), 'apps.update of a missing row').toBe(false);
}

export async function checkMembers(storage: Storage): Promise<void> {
  await storage.organizations.insert(organization());
  await storage.organizations.insert(organization({ id: 'org_b' }));
  const repo = storage.members;
  expect(await repo.get('mem_missing'), 'members.get of a missing id').toBeUndefined();

  const rows = [
    member({ id: 'mem_c', name: 'Bob' }),
    member({ id: 'mem_b', name: 'Ada', avatarUrl: 'https://example.com/a.png' }),
    member({ id: 'mem_a', name: 'Cy' }),
    member({ id: 'mem_d', name: 'Ada', orgId: 'org_b' }),
    member({ id: 'mem_e', name: 'Ada' }),
  ];
  await each(shuffled(rows), (row) => repo.upsert(row));
  expect(await repo.get('mem_b'), 'members.get returns the upserted row').toEqual(rows[1]);
  expect((await repo.listByOrg('org_a')).map((m) => m.id), 'members.listByOrg: by name, then id').toEqual([
    'mem_b',
    'mem_e',
    'mem_c',
    'mem_a',
  ]);

  const replaced = member({ id: 'mem_b', name: 'Zed', email: 'zed@example.com', avatarUrl: null });
  await repo.upsert(replaced);
  expect(await repo.get('mem_b'), 'members.upsert replaces the whole row').toEqual(replaced);
  expect((await repo.listByOrg('org_a')).map((m) => m.id), 'an upsert of an existing id adds no row').toEqual([
    'mem_e',
    'mem_c',
    'mem_a',
    'mem_b',
  ]);
  expect(await repo.listByOrg('org_missing'), 'members.listByOrg of an unknown org').toEqual([]);
}

export const organizationChecks: CheckGroup = {
  name: 'organizations, apps, members',
  checks: [
    { name: 'organizations: get, list order, insert conflict, update', run: checkOrganizations },
    { name: 'apps: get, list (all / by org) order, insert conflict, update', run: checkApps },
    { name: 'members: get, upsert replaces, listByOrg order', run: checkMembers },
  ],
};
