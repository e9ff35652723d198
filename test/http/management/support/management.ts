import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { expect } from 'vitest';
import '../../../../packages/core/src/schemas/formats.js';
import { sha256Hex } from '../../../../packages/core/src/security/secrets.js';
import type { ManagementScope } from '@flagmount/core';
import type { ApiResponse, Harness } from '../../support/harness.js';
import { flag as flagRecord } from '@flagmount/storage-conformance';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/** Fails with the first schema errors when `value` does not match `schema` (responses are checked strictly). */
export function expectSchema(schema: TSchema, value: unknown): void {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  if (!check.Check(value)) {
    const errors = [...check.Errors(value)].slice(0, 5).map((e) => `${e.path}: ${e.message}`);
    throw new Error(`response does not match schema:\n${errors.join('\n')}\n${JSON.stringify(value).slice(0, 2000)}`);
  }
}

/** The spec's error body with this status and code. */
export function expectError(res: ApiResponse, status: number, code: string, issuePath?: string): void {
  expect({ status: res.status, code: res.body?.error?.code, body: res.body }).toMatchObject({ status, code });
  expect(typeof res.body.error.message).toBe('string');
  expect(Object.keys(res.body).every((k) => k === 'error' || k === 'issues')).toBe(true);
  if (issuePath !== undefined) expect(Object.keys(res.body.issues ?? {})).toContain(issuePath);
}

/** Runs `fn` (a request expected to fail) and checks the store is byte-for-byte unchanged. */
export async function expectNothingStored(h: Harness, fn: () => Promise<unknown>): Promise<void> {
  const before = JSON.stringify(await h.dump());
  await fn();
  expect(JSON.stringify(await h.dump())).toBe(before);
}

let keyCounter = 0;
/** A management key of the harness organisation holding exactly `scopes` (inserted straight into the store). */
export async function keyWithScopes(h: Harness, scopes: ManagementScope[], orgId = h.orgId): Promise<string> {
  const secret = `fmk_test_${scopes.join('_').replace(/:/g, '-')}_${++keyCounter}_${Math.random().toString(36).slice(2)}`;
  await h.storage.managementKeys.insert({
    id: `mktest${String(keyCounter).padStart(8, '0')}`,
    orgId,
    name: `test ${scopes.join(' ')}`,
    scopes,
    hash: sha256Hex(secret),
    prefix: secret.slice(0, 8),
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  });
  return secret;
}

/** A second organisation with its own app, environment and admin key, to prove isolation. */
export async function otherOrganization(h: Harness): Promise<{ orgId: string; appId: string; envId: string; key: string }> {
  const at = new Date().toISOString();
  const orgId = 'orotherorg0001';
  const appId = 'apotherapp0001';
  const envId = 'enotherenv0001';
  await h.storage.organizations.insert({ id: orgId, name: 'Other org', createdAt: at });
  await h.storage.apps.insert({ id: appId, orgId, name: 'Other app', demo: false, flagKeyFormat: 'custom', createdAt: at });
  await h.storage.environments.insert({
    id: envId,
    appId,
    name: 'Production',
    isProduction: true,
    order: 0,
    flagStateVersion: 0,
    publishableKey: 'pub_fm_other_0123456789abcdefghijklm',
    secretKey: 'sec_fm_other_0123456789abcdefghijklm',
    createdAt: at,
  });
  await h.storage.flags.insert(
    flagRecord({ id: 'flotherflag001', appId, key: 'other-flag', name: 'Other flag', createdAt: at, updatedAt: at }),
  );
  const key = await keyWithScopes(h, ['admin'], orgId);
  return { orgId, appId, envId, key };
}

export async function createFlag(h: Harness, body: Record<string, unknown>, appId = h.appId): Promise<ApiResponse> {
  const res = await h.request('POST', `/apps/${appId}/flags`, { body: { name: String(body['key']), ...body } });
  if (res.status !== 200) throw new Error(`createFlag failed: ${res.status} ${res.text}`);
  return res;
}

export async function versions(h: Harness): Promise<Record<string, number>> {
  const envs = await h.storage.environments.listByApp(h.appId);
  return Object.fromEntries(envs.map((e) => [e.id, e.flagStateVersion]));
}

export const str = (n: number, c = 'a') => c.repeat(n);
