import { createFlagmount, type Flagmount } from '@flagmount/core';
import { FlagmountProvider } from '@flagmount/openfeature';
import { memoryStorage } from '@flagmount/storage-memory';
import { ErrorCode, OpenFeature, ProviderEvents, type EventDetails } from '@openfeature/server-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { createFlag, everyone, setTargeting, userIs } from '../ofrep/support/flags.js';

describe('FlagmountProvider (in-process, @openfeature/server-sdk)', () => {
  let h: Harness;
  const domain = 'flagmount-in-process';
  const client = () => OpenFeature.getClient(domain);

  beforeAll(async () => {
    h = await startHarness(expressFactory);
    await createFlag(h, { key: 'beta', rules: [userIs('u1'), { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] }] });
    await createFlag(h, {
      key: 'banner',
      rules: [everyone],
      variants: [
        { key: 'sale', payload: 'Summer sale', filter: userIs('u1') },
        { key: 'plain', payload: 'Welcome', filter: { type: 'context', field: 'user.id', operator: 'IS', values: ['u2'] } },
      ],
    });
    await createFlag(h, { key: 'limits', rules: [everyone], variants: [{ key: 'big', payload: { max: 100 }, filter: everyone }] });
    await createFlag(h, { key: 'retries', rules: [everyone], variants: [{ key: 'three', payload: 3, filter: everyone }] });
    await OpenFeature.setProviderAndWait(domain, new FlagmountProvider(h.instance));
  });
  afterAll(async () => {
    await OpenFeature.close();
    await h?.close();
  });

  it('evaluates boolean flags from isEnabled (TARGETING_MATCH / DEFAULT)', async () => {
    expect(await client().getBooleanDetails('beta', false, { targetingKey: 'u1' })).toMatchObject({ value: true, reason: 'TARGETING_MATCH', variant: 'on' });
    expect(await client().getBooleanDetails('beta', true, { targetingKey: 'u2' })).toMatchObject({ value: false, reason: 'DEFAULT', variant: 'off' });
    expect(await client().getBooleanValue('beta', false, { targetingKey: 'u3', companyId: 'acme', 'company.plan': 'enterprise' })).toBe(true);
    expect(await client().getBooleanValue('beta', false, { company: { plan: 'enterprise' } })).toBe(true);
  });

  it('evaluates string, number and object flags from the remote config payload', async () => {
    expect(await client().getStringDetails('banner', 'x', { targetingKey: 'u1' })).toMatchObject({ value: 'Summer sale', variant: 'sale', reason: 'TARGETING_MATCH' });
    expect(await client().getStringValue('banner', 'x', { targetingKey: 'u2' })).toBe('Welcome');
    // No variant matched: the caller's default, reason DEFAULT.
    expect(await client().getStringDetails('banner', 'fallback', { targetingKey: 'u3' })).toMatchObject({ value: 'fallback', reason: 'DEFAULT' });
    expect(await client().getNumberValue('retries', 0)).toBe(3);
    expect(await client().getObjectValue('limits', {})).toEqual({ max: 100 });
  });

  it('answers errors with the default: FLAG_NOT_FOUND, TYPE_MISMATCH, INVALID_CONTEXT', async () => {
    expect(await client().getBooleanDetails('nope', true)).toMatchObject({ value: true, reason: 'ERROR', errorCode: ErrorCode.FLAG_NOT_FOUND });
    expect(await client().getNumberDetails('banner', 7, { targetingKey: 'u1' })).toMatchObject({ value: 7, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH });
    expect(await client().getBooleanDetails('beta', true, { targetingKey: 'u1', a: { b: { c: 1 } } })).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: ErrorCode.INVALID_CONTEXT,
    });
  });

  it('accepts Date attributes (as ISO strings)', async () => {
    await setTargeting(h, 'beta', [{ type: 'context', field: 'user.signedUpAt', operator: 'DATE_AFTER', values: ['2024-01-01'] }]);
    expect(await client().getBooleanValue('beta', false, { targetingKey: 'u9', signedUpAt: new Date('2024-06-01T00:00:00Z') })).toBe(true);
    expect(await client().getBooleanValue('beta', false, { targetingKey: 'u9', signedUpAt: new Date('2023-06-01T00:00:00Z') })).toBe(false);
    await setTargeting(h, 'beta', [userIs('u1'), { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] }]);
  });

  it('emits ConfigurationChanged with the changed flags when the environment changes, and finds new flags', async () => {
    const seen: EventDetails[] = [];
    const handler = (details?: EventDetails) => void seen.push(details!);
    client().addHandler(ProviderEvents.ConfigurationChanged, handler);
    try {
      await setTargeting(h, 'beta', [userIs('u1', 'u5')]);
      await expect.poll(() => seen.length).toBeGreaterThan(0);
      expect(seen.at(-1)!.flagsChanged).toEqual(['beta']);
      expect(await client().getBooleanValue('beta', false, { targetingKey: 'u5' })).toBe(true);

      await createFlag(h, { key: 'fresh', rules: [everyone] });
      await expect.poll(() => seen.some((d) => (d.flagsChanged as string[] | undefined)?.includes('fresh'))).toBe(true);
      expect(await client().getBooleanDetails('fresh', false)).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });

      // Another environment's change is not this provider's business.
      const before = seen.length;
      await h.request('PUT', `/apps/${h.appId}/flags/beta/targeting/${h.envs.production.id}`, { body: { rules: [{ filter: everyone }] } });
      await new Promise((r) => setTimeout(r, 100));
      expect(seen.length).toBe(before);
    } finally {
      client().removeHandler(ProviderEvents.ConfigurationChanged, handler);
    }
  });

  it('records checks as the in-process client does, and tracks through OpenFeature track()', async () => {
    await client().getBooleanValue('beta', false, { targetingKey: 'u1' });
    client().track('beta', { targetingKey: 'u1' }, { value: 1 });
    await new Promise((r) => setTimeout(r, 50));
    await h.instance.client.flush();
    await h.instance.services.ingestion.flush();
    const dump = await h.storage.dump();
    const checks = Object.entries(dump).find(([name]) => /check/i.test(name))?.[1] as Array<{ flagKey: string; userId: string | null }>;
    expect(checks.some((c) => c.flagKey === 'beta' && c.userId === 'u1')).toBe(true);
    const tracks = Object.entries(dump).find(([name]) => /track/i.test(name))?.[1] as Array<{ event: string; userId: string }>;
    expect(tracks.some((t) => t.event === 'beta' && t.userId === 'u1')).toBe(true);
  });
});

/** Management writes through the instance's handler, as any caller would, with the bootstrap management key. */
const managementCall = (instance: Flagmount) => (method: string, path: string, body?: unknown) =>
  instance.handler({
    method,
    path,
    query: [],
    headers: { authorization: `Bearer ${instance.bootstrap!.managementKey}`, 'content-type': 'application/json' },
    body: body === undefined ? { kind: 'none' } : { kind: 'parsed', value: body },
  });

describe('FlagmountProvider over a bare client, and per environment', () => {
  let instance: Flagmount;
  afterEach(async () => {
    await OpenFeature.close();
    await instance?.close();
  });

  it('evaluates with only a client (no change feed) and in a named environment', async () => {
    instance = await createFlagmount({ storage: memoryStorage(), bootstrap: true });
    const app = instance.bootstrap!;
    const prod = app.environments.find((e) => e.name === 'Production')!;
    const services = instance.services;
    const call = managementCall(instance);
    expect((await call('POST', `/apps/${app.appId}/flags`, { key: 'only-prod', name: 'Only prod' })).status).toBe(200);
    expect((await call('PUT', `/apps/${app.appId}/flags/only-prod/targeting/${prod.id}`, { rules: [{ filter: everyone }] })).status).toBe(200);
    expect(services.snapshots.get(prod.id)!.flags.has('only-prod')).toBe(true);

    await OpenFeature.setProviderAndWait('bare', new FlagmountProvider(instance.clientFor('Production')));
    expect(await OpenFeature.getClient('bare').getBooleanValue('only-prod', false)).toBe(true);
    expect(await OpenFeature.getClient('bare').getBooleanDetails('missing', false)).toMatchObject({ errorCode: ErrorCode.FLAG_NOT_FOUND });
    // With no change feed, a flag created or archived a moment ago is still told apart from an unknown one at once.
    expect((await call('POST', `/apps/${app.appId}/flags`, { key: 'missing', name: 'Now here' })).status).toBe(200);
    expect(await OpenFeature.getClient('bare').getBooleanDetails('missing', true)).toMatchObject({ value: false, reason: 'DEFAULT' });

    await OpenFeature.setProviderAndWait('named', new FlagmountProvider(instance, { environment: 'Production' }));
    expect(await OpenFeature.getClient('named').getBooleanValue('only-prod', false)).toBe(true);
    await OpenFeature.setProviderAndWait('default', new FlagmountProvider(instance));
    expect(await OpenFeature.getClient('default').getBooleanDetails('only-prod', true)).toMatchObject({ value: false, reason: 'DEFAULT' });
    const onlyProd = (await call('GET', `/apps/${app.appId}/flags`)).body as string;
    const flagId = (JSON.parse(onlyProd) as { data: Array<{ id: string; key: string }> }).data.find((f) => f.key === 'only-prod')!.id;
    expect((await call('PATCH', `/apps/${app.appId}/flags/${flagId}`, { isArchived: true })).status).toBe(200);
    expect(await OpenFeature.getClient('bare').getBooleanDetails('only-prod', true)).toMatchObject({ value: true, errorCode: ErrorCode.FLAG_NOT_FOUND });
  });

  it("follows the instance client's environment for change events when createFlagmount chose it", async () => {
    instance = await createFlagmount({ storage: memoryStorage(), bootstrap: true, environment: 'Production' });
    const app = instance.bootstrap!;
    const envId = (name: string) => app.environments.find((e) => e.name === name)!.id;
    const call = managementCall(instance);
    await call('POST', `/apps/${app.appId}/flags`, { key: 'f', name: 'F' });
    await OpenFeature.setProviderAndWait('chosen', new FlagmountProvider(instance));
    const seen: string[][] = [];
    OpenFeature.getClient('chosen').addHandler(ProviderEvents.ConfigurationChanged, (details) => void seen.push(details!.flagsChanged as string[]));
    await call('PUT', `/apps/${app.appId}/flags/f/targeting/${envId('Development')}`, { rules: [{ filter: everyone }] });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([]);
    await call('PUT', `/apps/${app.appId}/flags/f/targeting/${envId('Production')}`, { rules: [{ filter: everyone }] });
    await expect.poll(() => seen).toEqual([['f']]);
    expect(await OpenFeature.getClient('chosen').getBooleanValue('f', false)).toBe(true);
  });
});
