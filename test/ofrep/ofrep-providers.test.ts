import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
import { ErrorCode, OpenFeature } from '@openfeature/server-sdk';
import { OpenFeature as WebOpenFeature } from '@openfeature/web-sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { createFlag, everyone, setTargeting, userIs } from './support/flags.js';

/** The published OFREP providers against a mounted app: what real OpenFeature users get. */
describe('published OFREP providers against a mounted Flagmount', () => {
  let h: Harness;
  /** Evaluations over OFREP count as checks: the flag shows activity (it is not stale for want of checks). */
  const showsChecks = (flagKey: string) =>
    vi.waitFor(
      async () => {
        const list = await h.request('GET', `/apps/${h.appId}/flags`, { query: { envId: h.envs.development.id } });
        expect(list.body.data.find((f: { key: string }) => f.key === flagKey)?.lastCheckAt).toBeDefined();
      },
      { timeout: 5000 },
    );

  beforeAll(async () => {
    h = await startHarness(expressFactory);
    await createFlag(h, { key: 'beta', rules: [userIs('u1'), { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] }] });
    await createFlag(h, {
      key: 'banner',
      rules: [everyone],
      variants: [
        { key: 'sale', payload: 'Summer sale', filter: userIs('u1') },
        { key: 'none', payload: 'Welcome', filter: everyone },
      ],
    });
    await createFlag(h, { key: 'limits', rules: [everyone], variants: [{ key: 'big', payload: { max: 100, tiers: ['a', 'b'] }, filter: everyone }] });
    await createFlag(h, { key: 'retries', rules: [everyone], variants: [{ key: 'three', payload: 3, filter: everyone }] });
  });
  afterAll(async () => {
    await OpenFeature.close();
    await WebOpenFeature.close();
    await h?.close();
  });

  describe('@openfeature/ofrep-provider with @openfeature/server-sdk', () => {
    const domain = 'flagmount-ofrep';
    const client = () => OpenFeature.getClient(domain);

    beforeAll(async () => {
      const provider = new OFREPProvider({ baseUrl: h.baseUrl, headers: [['Authorization', `Bearer ${h.envs.development.secretKey}`]] });
      await OpenFeature.setProviderAndWait(domain, provider);
    });

    it('evaluates boolean flags from isEnabled, with reason and variant', async () => {
      const on = await client().getBooleanDetails('beta', false, { targetingKey: 'u1' });
      expect(on).toMatchObject({ value: true, reason: 'TARGETING_MATCH', variant: 'on' });
      expect(on.flagMetadata).toMatchObject({ isEnabled: true, targetingVersion: 1 });
      expect(await client().getBooleanValue('beta', true, { targetingKey: 'u2' })).toBe(false);
      expect(await client().getBooleanValue('beta', false, { targetingKey: 'u3', 'company.plan': 'enterprise' })).toBe(true);
      expect(await client().getBooleanValue('beta', false, { targetingKey: 'u3', company: { plan: 'enterprise' } })).toBe(true);
    });

    it('evaluates string, number and object flags from the matched variant payload', async () => {
      expect(await client().getStringDetails('banner', 'x', { targetingKey: 'u1' })).toMatchObject({ value: 'Summer sale', variant: 'sale' });
      expect(await client().getStringValue('banner', 'x', { targetingKey: 'u2' })).toBe('Welcome');
      expect(await client().getNumberValue('retries', 0, {})).toBe(3);
      expect(await client().getObjectValue('limits', {}, {})).toEqual({ max: 100, tiers: ['a', 'b'] });
      await showsChecks('retries');
    });

    it('falls back to the default with FLAG_NOT_FOUND, INVALID_CONTEXT and TYPE_MISMATCH', async () => {
      const missing = await client().getBooleanDetails('nope', true, { targetingKey: 'u1' });
      expect(missing).toMatchObject({ value: true, reason: 'ERROR', errorCode: ErrorCode.FLAG_NOT_FOUND });
      const invalid = await client().getBooleanDetails('beta', true, { targetingKey: 'u1', deep: { deeper: { deepest: 1 } } });
      expect(invalid).toMatchObject({ value: true, reason: 'ERROR', errorCode: ErrorCode.INVALID_CONTEXT });
      const mismatch = await client().getNumberDetails('banner', 7, { targetingKey: 'u1' });
      expect(mismatch).toMatchObject({ value: 7, errorCode: ErrorCode.TYPE_MISMATCH });
    });

    it('sees a targeting change on the next evaluation', async () => {
      expect(await client().getBooleanValue('beta', false, { targetingKey: 'u4' })).toBe(false);
      await setTargeting(h, 'beta', [userIs('u1', 'u4')]);
      expect(await client().getBooleanValue('beta', false, { targetingKey: 'u4' })).toBe(true);
    });

    it('reports a refused key as an error, never as a value', async () => {
      const domainBad = 'flagmount-ofrep-bad-key';
      await OpenFeature.setProviderAndWait(domainBad, new OFREPProvider({ baseUrl: h.baseUrl, headers: [['Authorization', 'Bearer wrong']] }));
      const details = await OpenFeature.getClient(domainBad).getBooleanDetails('beta', false, { targetingKey: 'u1' });
      expect(details).toMatchObject({ value: false, reason: 'ERROR' });
    });
  });

  describe('@openfeature/ofrep-web-provider with @openfeature/web-sdk (in Node)', () => {
    it('loads every flag in bulk for the static context, with the publishable key', async () => {
      await createFlag(h, { key: 'web-only', rules: [everyone] });
      const provider = new OFREPWebProvider({
        baseUrl: h.baseUrl,
        headers: [['Authorization', `Bearer ${h.envs.development.publishableKey}`]],
        // Node has no localStorage and no document: no cache, no polling timers left behind.
        cacheMode: 'disabled',
        changeDetection: 'none',
        pollInterval: 0,
      });
      await WebOpenFeature.setContext({ targetingKey: 'u1' });
      await WebOpenFeature.setProviderAndWait(provider);
      const client = WebOpenFeature.getClient();
      expect(client.getBooleanDetails('beta', false)).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
      expect(client.getStringValue('banner', 'x')).toBe('Summer sale');
      expect(client.getObjectValue('limits', {})).toEqual({ max: 100, tiers: ['a', 'b'] });
      expect(client.getBooleanDetails('nope', true)).toMatchObject({ value: true, errorCode: ErrorCode.FLAG_NOT_FOUND });
      await showsChecks('web-only');

      await WebOpenFeature.setContext({ targetingKey: 'u2' });
      expect(client.getBooleanValue('beta', true)).toBe(false);
      expect(client.getStringValue('banner', 'x')).toBe('Welcome');
    });
  });
});
