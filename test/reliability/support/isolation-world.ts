import type { createFlagmount, ManagementScope } from '@flagmount/core';
import { MANAGEMENT_KEY } from '../../http/support/harness.js';
import { otherOrganization } from '../../http/management/support/management.js';
import type { Send } from './request-senders.js';

/**
 * The world the isolation matrix runs in: app A (bootstrap) with Development and Production, app B created through
 * the admin API, a management key per scope created through the admin API, and a second organisation with its own
 * admin key.
 */

export const SCOPES: ManagementScope[] = ['read', 'write:flags', 'write:flag:targeting', 'write:entities', 'admin'];

export interface World {
  appA: string;
  appB: string;
  envA: { dev: Env; prod: Env };
  envB: { dev: Env; prod: Env };
  scopeKeys: Record<ManagementScope, string>;
  otherOrgKey: string;
  /** Ids that exist in app A (reads) and ids that do not (deletes: a real delete would change the world). */
  ids: Record<string, string>;
  missing: Record<string, string>;
  secrets: string[];
}
export interface Env {
  id: string;
  publishableKey: string;
  secretKey: string;
}


export async function buildWorld(send: Send, instance: Awaited<ReturnType<typeof createFlagmount>>): Promise<World> {
  const admin = `Bearer ${MANAGEMENT_KEY}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await send(method, path, { authorization: admin, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return JSON.parse(res.text!) as any;
  };
  const bootstrap = instance.bootstrap!;
  const appA = bootstrap.appId;
  const envOf = (name: string) => {
    const e = bootstrap.environments.find((x) => x.name === name)!;
    return { id: e.id, publishableKey: e.publishableKey, secretKey: e.secretKey };
  };
  const envA = { dev: envOf('Development'), prod: envOf('Production') };

  const scopeKeys = {} as Record<ManagementScope, string>;
  const secrets = [MANAGEMENT_KEY];
  for (const scope of SCOPES) {
    const { secret } = await call('POST', '/keys', { name: `only ${scope}`, scopes: [scope] });
    scopeKeys[scope] = secret;
    secrets.push(secret);
  }
  const { key: readKey } = await call('POST', '/keys', { name: 'listed', scopes: ['read'] }).then((r) => {
    secrets.push(r.secret);
    return r;
  });

  const appB = (await call('POST', '/apps', { name: 'App B' })).id as string;
  const envsB = (await call('GET', `/apps/${appB}/environments`)).data as Array<{ id: string; name: string }>;
  const fullEnv = async (appId: string, envId: string): Promise<Env> => {
    const env = await call('GET', `/apps/${appId}/environments/${envId}`);
    return { id: env.id, publishableKey: env.sdkAccess.publishableKey, secretKey: env.sdkAccess.secretKey };
  };
  const envB = {
    dev: await fullEnv(appB, envsB.find((e) => e.name === 'Development')!.id),
    prod: await fullEnv(appB, envsB.find((e) => e.name === 'Production')!.id),
  };

  // flag-a is on for everyone in A/Development only; flag-b in B/Development only.
  const everyone = { rules: [{ filter: { type: 'constant', value: true } }] };
  const flagA = (await call('POST', `/apps/${appA}/flags`, { key: 'flag-a', name: 'Flag A' })).flag;
  await call('PUT', `/apps/${appA}/flags/flag-a/targeting/${envA.dev.id}`, everyone);
  await call('POST', `/apps/${appB}/flags`, { key: 'flag-b', name: 'Flag B' });
  await call('PUT', `/apps/${appB}/flags/flag-b/targeting/${envB.dev.id}`, everyone);
  await call('PUT', `/apps/${appA}/envs/${envA.dev.id}/users/u1`, { name: 'U1', attributes: {} });
  await call('PUT', `/apps/${appA}/envs/${envA.dev.id}/companies/c1`, { name: 'C1', attributes: {} });
  await call('PUT', '/members/m1', { name: 'M One', email: 'm1@example.com' });
  const app = await call('GET', `/apps/${appA}`);
  const other = await otherOrganization({ storage: instance.services.storage, orgId: bootstrap.organizationId } as never);
  const { loadDashboardAssets } = await import('../../../packages/core/src/dashboard/assets.js');
  const asset = [...(await loadDashboardAssets(instance.services.logger)).files.keys()][0]!;
  return {
    appA,
    appB,
    envA,
    envB,
    scopeKeys,
    otherOrgKey: other.key,
    secrets,
    ids: {
      appId: appA,
      envId: envA.dev.id,
      flagId: flagA.id,
      flagKey: 'flag-a',
      key: 'flag-a',
      userId: 'u1',
      companyId: 'c1',
      memberId: 'm1',
      keyId: readKey.id,
      stageId: app.stages[0].id,
      segmentId: app.segments[0].id,
      file: asset,
    },
    missing: {
      userId: 'nobody',
      companyId: 'nocompany',
      stageId: 'stmissing00000',
      segmentId: 'sgmissing00000',
      keyId: 'mkmissing00000',
    },
  };
}
