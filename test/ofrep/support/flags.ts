import type { ConfigVariant, Filter } from '@flagmount/engine';
import { expect } from 'vitest';
import type { Harness } from '../../http/support/harness.js';

export interface FlagSpec {
  key: string;
  secret?: boolean;
  /** Rules in the Development environment. */
  rules?: Filter[];
  variants?: ConfigVariant[];
}

/** Creates a flag and its Development targeting through the management API; resolves the new flagStateVersion. */
export async function createFlag(h: Harness, spec: FlagSpec): Promise<number> {
  const created = await h.request('POST', `/apps/${h.appId}/flags`, {
    body: { key: spec.key, name: spec.key, ...(spec.secret ? { secret: true } : {}) },
  });
  expect(created.status, created.text).toBe(200);
  if (!spec.rules && !spec.variants) return created.body.flagStateVersions[h.envs.development.id];
  return setTargeting(h, spec.key, spec.rules ?? [], spec.variants);
}

export async function setTargeting(h: Harness, key: string, rules: Filter[], variants?: ConfigVariant[]): Promise<number> {
  const res = await h.request('PUT', `/apps/${h.appId}/flags/${key}/targeting/${h.envs.development.id}`, {
    body: { rules: rules.map((filter) => ({ filter })), ...(variants ? { config: { variants } } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.flagStateVersion;
}

export const userIs = (...ids: string[]): Filter => ({ type: 'context', field: 'user.id', operator: 'ANY_OF', values: ids });
export const everyone: Filter = { type: 'constant', value: true };
