import type { AuditListFilter, AuditRecord, Storage } from '@flagmount/core';
import { expect } from 'vitest';
import { app, at, audit, managementKey, organization, seedBase } from '../fixtures.js';
import type { CheckGroup } from '../types.js';
import { each, expectConflict, shuffled } from '../util.js';

async function seedOrgs(storage: Storage): Promise<void> {
  await seedBase(storage);
  await storage.apps.insert(app({ id: 'app_b' }));
  await storage.organizations.insert(organization({ id: 'org_b' }));
}

const ids = (rows: AuditRecord[]) => rows.map((r) => r.id);

export async function checkAuditList(storage: Storage): Promise<void> {
  await seedOrgs(storage);
  const repo = storage.audit;
  expect(await repo.list({ orgId: 'org_a', limit: 10 }), 'audit.list of an empty log').toEqual([]);
  const rows = [
    audit({ id: 'aud_a', createdAt: at(1) }),
    audit({ id: 'aud_b', createdAt: at(3), before: { archived: false }, after: { archived: true } }),
    audit({ id: 'aud_c', createdAt: at(3), appId: 'app_b' }),
    audit({ id: 'aud_d', createdAt: at(3), appId: null, envId: null, changeDescription: null, after: null }),
    audit({ id: 'aud_e', createdAt: at(2), envId: 'env_a', before: [1, 'two'], after: 'text' }),
    audit({ id: 'aud_f', createdAt: at(5), orgId: 'org_b', appId: null }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));
  await expectConflict(repo.insert(audit({ id: 'aud_a', createdAt: at(9) })), 'audit.insert duplicate id');

  const all = await repo.list({ orgId: 'org_a', limit: 100 });
  expect(ids(all), 'audit.list: newest first on (createdAt, id)').toEqual(['aud_d', 'aud_c', 'aud_b', 'aud_e', 'aud_a']);
  expect(all.find((r) => r.id === 'aud_e'), 'audit rows round-trip, before/after JSON included').toEqual(rows[4]);
  expect(all.find((r) => r.id === 'aud_d'), 'audit rows round-trip with nulls').toEqual(rows[3]);
  expect(ids(await repo.list({ orgId: 'org_a', appId: 'app_a', limit: 100 })), 'audit.list({ appId })').toEqual([
    'aud_b',
    'aud_e',
    'aud_a',
  ]);
  expect(ids(await repo.list({ orgId: 'org_a', limit: 2 })), 'audit.list: bounded by limit').toEqual(['aud_d', 'aud_c']);
  expect(ids(await repo.list({ orgId: 'org_b', limit: 10 })), 'audit.list is per organisation').toEqual(['aud_f']);

  // Paging by the (createdAt, id) of the last row of a page, through rows that share a createdAt.
  const paged: string[] = [];
  let before: { createdAt: string; id: string } | undefined;
  for (let page = 0; page < 10; page++) {
    const rowsOfPage = await repo.list({ orgId: 'org_a', limit: 2, ...(before ? { before } : {}) });
    if (rowsOfPage.length === 0) break;
    paged.push(...ids(rowsOfPage));
    const last = rowsOfPage[rowsOfPage.length - 1]!;
    before = { createdAt: last.createdAt, id: last.id };
  }
  expect(paged, 'paging with `before` visits every row once, in order').toEqual(ids(all));
  expect(
    ids(await repo.list({ orgId: 'org_a', limit: 10, before: { createdAt: at(3), id: 'aud_c' } })),
    '`before` is exclusive on (createdAt, id)',
  ).toEqual(['aud_b', 'aud_e', 'aud_a']);
  expect(
    ids(await repo.list({ orgId: 'org_a', appId: 'app_a', limit: 10, before: { createdAt: at(3), id: 'aud_c' } })),
    '`before` combines with appId',
  ).toEqual(['aud_b', 'aud_e', 'aud_a']);
}

/** Walks every page of `filter` at `limit` rows a page, by the (createdAt, id) of each page's last row. */
async function walk(storage: Storage, filter: Omit<AuditListFilter, 'limit' | 'before'>, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let before: AuditListFilter['before'];
  for (let page = 0; page < 20; page++) {
    const rows = await storage.audit.list({ ...filter, limit, ...(before ? { before } : {}) });
    if (rows.length === 0) break;
    pages.push(ids(rows));
    const last = rows[rows.length - 1]!;
    before = { createdAt: last.createdAt, id: last.id };
  }
  return pages;
}

export async function checkAuditFilters(storage: Storage): Promise<void> {
  await seedOrgs(storage);
  const repo = storage.audit;
  // Matches are spread between non-matches so that a store filtering after its limit returns short pages.
  const rows = [
    audit({ id: 'aud_01', createdAt: at(1), envId: 'env_a', actor: 'member:m1', action: 'flag.created' }),
    audit({ id: 'aud_02', createdAt: at(2), envId: 'env_b', actor: 'member:m1', action: 'flag.created' }),
    audit({ id: 'aud_03', createdAt: at(3), envId: 'env_a', actor: 'key_a', action: 'flag.targeting.updated' }),
    audit({ id: 'aud_04', createdAt: at(4), envId: null, actor: 'member:m1', action: 'segment.created' }),
    audit({ id: 'aud_05', createdAt: at(5), envId: 'env_a', actor: 'member:m1', action: 'flag.targeting.updated' }),
    audit({ id: 'aud_06', createdAt: at(5), envId: 'env_a', actor: 'member:m10', action: 'flagship.created' }),
    audit({ id: 'aud_07', createdAt: at(6), envId: 'env_a', actor: 'member:m1', action: 'Flag.created', appId: 'app_b' }),
    audit({ id: 'aud_08', createdAt: at(7), envId: 'env_a', actor: 'member:m1', action: 'flag.schedule.applied' }),
    audit({ id: 'aud_09', createdAt: at(8), envId: 'env_b', actor: 'key_a', action: 'flag_x.created' }),
    audit({ id: 'aud_10', createdAt: at(9), envId: 'env_a', actor: 'member:m1', action: 'flag.created', orgId: 'org_b' }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));

  const org = { orgId: 'org_a' };
  expect(await walk(storage, { ...org, envId: 'env_a' }, 2), 'audit.list({ envId }) pages are full').toEqual([
    ['aud_08', 'aud_07'],
    ['aud_06', 'aud_05'],
    ['aud_03', 'aud_01'],
  ]);
  expect(await walk(storage, { ...org, actor: 'member:m1' }, 2), 'audit.list({ actor }) is exact').toEqual([
    ['aud_08', 'aud_07'],
    ['aud_05', 'aud_04'],
    ['aud_02', 'aud_01'],
  ]);
  expect(await walk(storage, { ...org, action: { exact: 'flag.created' } }, 1), 'audit.list({ action: exact })').toEqual([
    ['aud_02'],
    ['aud_01'],
  ]);
  expect(
    await walk(storage, { ...org, action: { prefix: 'flag.' } }, 2),
    'audit.list({ action: prefix }): case-sensitive, `_` and `.` literal',
  ).toEqual([['aud_08', 'aud_05'], ['aud_03', 'aud_02'], ['aud_01']]);
  expect(
    await walk(storage, { ...org, appId: 'app_a', envId: 'env_a', actor: 'member:m1', action: { prefix: 'flag.' } }, 2),
    'audit.list: every filter combines with the others',
  ).toEqual([['aud_08', 'aud_05'], ['aud_01']]);
  expect(await repo.list({ ...org, envId: 'env_missing', limit: 10 }), 'a filter that matches nothing').toEqual([]);
}

export async function checkManagementKeys(storage: Storage): Promise<void> {
  await seedOrgs(storage);
  const repo = storage.managementKeys;
  expect(await repo.get('key_missing'), 'managementKeys.get of a missing id').toBeUndefined();
  expect(await repo.getByHash('hash_missing'), 'managementKeys.getByHash of a missing hash').toBeUndefined();
  const rows = [
    managementKey({ id: 'key_c', createdAt: at(1) }),
    managementKey({ id: 'key_a', createdAt: at(2), scopes: ['read', 'write:flags', 'write:flag:targeting', 'write:entities', 'admin'] }),
    managementKey({ id: 'key_b', createdAt: at(1), scopes: [], lastUsedAt: at(4), revokedAt: at(5) }),
    managementKey({ id: 'key_d', orgId: 'org_b' }),
  ];
  await each(shuffled(rows), (row) => repo.insert(row));
  expect(await repo.get('key_a'), 'managementKeys.get returns the row, scopes included').toEqual(rows[1]);
  expect(await repo.getByHash(rows[2]!.hash), 'managementKeys.getByHash').toEqual(rows[2]);
  expect(await repo.getByHash(rows[2]!.hash.toUpperCase()), 'getByHash is an exact match').toBeUndefined();
  expect((await repo.listByOrg('org_a')).map((k) => k.id), 'managementKeys.listByOrg: by creation time, then id').toEqual([
    'key_b',
    'key_c',
    'key_a',
  ]);
  expect(await repo.listByOrg('org_missing'), 'listByOrg of an unknown organisation').toEqual([]);

  await expectConflict(repo.insert(managementKey({ id: 'key_a', hash: 'hash_fresh' })), 'managementKeys.insert duplicate id');
  await expectConflict(repo.insert(managementKey({ id: 'key_e', hash: rows[0]!.hash })), 'managementKeys.insert duplicate hash');
  expect(await repo.get('key_e'), 'a rejected insert leaves nothing').toBeUndefined();

  const patch = { name: 'Renamed', lastUsedAt: at(7), revokedAt: at(8), scopes: ['read' as const] };
  expect(await repo.update('key_a', patch), 'managementKeys.update').toBe(true);
  expect(await repo.get('key_a'), 'managementKeys.update changes only the patched fields').toEqual({ ...rows[1], ...patch });
  expect(await repo.update('key_b', { revokedAt: null }), 'managementKeys.update to null').toBe(true);
  expect((await repo.get('key_b'))?.revokedAt, 'revokedAt can be cleared').toBeNull();
  expect(await repo.update('key_missing', { name: 'X' }), 'managementKeys.update of a missing row').toBe(false);
}

export const auditKeyChecks: CheckGroup = {
  name: 'audit and management keys',
  checks: [
    { name: 'audit: newest first, filters, limit, exclusive (createdAt, id) cursor', run: checkAuditList },
    { name: 'audit: envId, actor and action (exact, prefix) filter before the limit, pages continue the filtered walk', run: checkAuditFilters },
    { name: 'management keys: get, getByHash, listByOrg order, id and hash unique, update', run: checkManagementKeys },
  ],
};
