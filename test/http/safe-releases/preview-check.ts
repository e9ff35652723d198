import { expect } from 'vitest';
import { TargetingPreviewSchema } from '../../../packages/core/src/schemas/preview.js';
import type { Harness } from '../support/harness.js';
import { createFlag, expectError, expectNothingStored, expectSchema } from '../management/support/management.js';

const PLANS = ['free', 'pro', 'enterprise'];
const at = new Date().toISOString();

/** Stored users and companies with attributes the rules below read (and some without). */
async function seedEntities(h: Harness, users: number, companies: number): Promise<void> {
  const envId = h.envs.production.id;
  for (let i = 0; i < users; i++) {
    const attributes = i % 7 === 0 ? {} : { plan: PLANS[i % 3], seats: i % 50 };
    await h.storage.entities.put({ envId, type: 'user', id: `user-${String(i).padStart(3, '0')}`, name: null, attributes, createdAt: at, updatedAt: at });
  }
  for (let i = 0; i < companies; i++) {
    await h.storage.entities.put({ envId, type: 'company', id: `company-${String(i).padStart(3, '0')}`, name: null, attributes: { country: i % 2 ? 'de' : 'fr' }, createdAt: at, updatedAt: at });
  }
}

/** Who `/features/evaluated` says has the flag, entity by entity (an independent path: HTTP, remote context). */
async function enabledIds(h: Harness, type: 'user' | 'company', ids: string[]): Promise<Set<string>> {
  const on = new Set<string>();
  for (const id of ids) {
    const res = await h.request('GET', '/features/evaluated', { key: h.envs.production.secretKey, query: { [`context.${type}.id`]: id, key: 'k' } });
    if (res.body.features.k?.isEnabled) on.add(id);
  }
  return on;
}

/**
 * The preview's counts and samples equal a direct evaluation of every stored entity before and after the change is
 * saved; bad input is refused and the preview writes nothing.
 */
export async function checkPreviewAgainstDirectEvaluation(h: Harness, users = 130, companies = 30): Promise<void> {
  await createFlag(h, { key: 'gate' });
  await createFlag(h, { key: 'k' });
  const path = `/apps/${h.appId}/flags/k/targeting/${h.envs.production.id}`;
  await h.request('PUT', `/apps/${h.appId}/flags/gate/targeting/${h.envs.production.id}`, { body: { rules: [{ filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 80000 } }, { filter: { type: 'context', field: 'company.id', operator: 'SET', values: [] } }] } });
  expect((await h.request('PUT', path, { body: { rules: [{ filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } }] } })).status).toBe(200);
  await seedEntities(h, users, companies);
  const userIds = Array.from({ length: users }, (_, i) => `user-${String(i).padStart(3, '0')}`);
  const companyIds = Array.from({ length: companies }, (_, i) => `company-${String(i).padStart(3, '0')}`);

  const proposed = {
    rules: [
      { filter: { type: 'context', field: 'user.plan', operator: 'ANY_OF', values: ['enterprise', 'free'] } },
      { filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 30000 } },
      { filter: { type: 'context', field: 'company.country', operator: 'IS', values: ['de'] } },
    ],
    prerequisites: [{ flagKey: 'gate', isEnabled: true }],
  };
  let preview: any;
  await expectNothingStored(h, async () => {
    const res = await h.request('POST', `${path}/preview`, { body: proposed });
    expect(res.status, res.text).toBe(200);
    expectSchema(TargetingPreviewSchema, res.body);
    preview = res.body;
    expectError(await h.request('POST', `${path}/preview`, { body: { rules: [{ filter: { type: 'context', field: 'x', operator: 'IS', values: [] } }] } }), 400, 'invalid_request', 'rules.0.filter.values');
    expectError(await h.request('POST', `${path}/preview`, { body: { rules: [], prerequisites: [{ flagKey: 'k', isEnabled: true }] } }), 400, 'not_possible', 'prerequisites.0.flagKey');
    expectError(await h.request('POST', `/apps/${h.appId}/flags/nope/targeting/${h.envs.production.id}/preview`, { body: { rules: [] } }), 404, 'not_found');
    expectError(await h.request('POST', `/apps/${h.appId}/flags/k/targeting/ennope/preview`, { body: { rules: [] } }), 404, 'not_found');
  });

  const usersNow = await enabledIds(h, 'user', userIds);
  const companiesNow = await enabledIds(h, 'company', companyIds);
  expect((await h.request('PUT', path, { body: proposed })).status).toBe(200);
  const usersAfter = await enabledIds(h, 'user', userIds);
  const companiesAfter = await enabledIds(h, 'company', companyIds);

  for (const [counts, ids, now, after] of [
    [preview.users, userIds, usersNow, usersAfter],
    [preview.companies, companyIds, companiesNow, companiesAfter],
  ] as const) {
    const turnedOn = ids.filter((id) => after.has(id) && !now.has(id));
    const turnedOff = ids.filter((id) => now.has(id) && !after.has(id));
    expect(counts).toEqual({
      total: ids.length,
      enabledNow: now.size,
      enabledAfter: after.size,
      turnedOn: turnedOn.length,
      turnedOff: turnedOff.length,
      sample: { turnedOn: turnedOn.slice(0, 20), turnedOff: turnedOff.slice(0, 20) },
    });
  }
  // The change is not trivial in either direction.
  expect(preview.users.turnedOn).toBeGreaterThan(20);
  expect(preview.users.turnedOff).toBeGreaterThan(5);
  expect(preview.companies.turnedOn).toBeGreaterThan(5);
}
