import { FlagmountProvider } from '@flagmount/openfeature';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature, type Client, type EvaluationDetails, type JsonValue } from '@openfeature/server-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachAdapter, type Harness } from '../http/support/harness.js';
import { createFlag, everyone } from '../ofrep/support/flags.js';

interface ManifestFlag {
  key: string;
  type: 'boolean' | 'string' | 'integer' | 'float' | 'object';
  defaultValue: JsonValue;
}

/** What a generated accessor of this type calls: the OpenFeature CLI's generators map the manifest type to a method. */
function evaluate(client: Client, flag: ManifestFlag): Promise<EvaluationDetails<JsonValue>> {
  const context = { targetingKey: 'u1' };
  switch (flag.type) {
    case 'boolean':
      return client.getBooleanDetails(flag.key, flag.defaultValue as boolean, context);
    case 'string':
      return client.getStringDetails(flag.key, flag.defaultValue as string, context);
    case 'integer':
    case 'float':
      return client.getNumberDetails(flag.key, flag.defaultValue as number, context);
    case 'object':
      return client.getObjectDetails(flag.key, flag.defaultValue, context);
  }
}

/**
 * The manifest's types are the ones the providers answer: code generated from `openfeature pull` against the mount
 * evaluates every flag without TYPE_MISMATCH, in-process and over OFREP, on every adapter.
 */
describe('OpenFeature manifest types agree with the providers', () => {
  afterAll(() => OpenFeature.close());

  forEachAdapter((harness, adapter) => {
    it('types every flag as the in-process and the OFREP provider answer it', async () => {
      const h: Harness = harness();
      await createFlag(h, { key: 'beta', rules: [everyone] });
      await createFlag(h, { key: 'banner', rules: [everyone], variants: [{ key: 'sale', payload: 'Summer sale', filter: everyone }] });
      await createFlag(h, { key: 'retries', rules: [everyone], variants: [{ key: 'three', payload: 3, filter: everyone }] });
      await createFlag(h, { key: 'ratio', rules: [everyone], variants: [{ key: 'half', payload: 0.5, filter: everyone }] });
      await createFlag(h, { key: 'limits', rules: [everyone], variants: [{ key: 'big', payload: { max: 100 }, filter: everyone }] });
      const manifest = await h.request<{ flags: ManifestFlag[] }>('GET', '/openfeature/v0/manifest');
      expect(manifest.body.flags.map((f) => [f.key, f.type])).toEqual([
        ['banner', 'string'],
        ['beta', 'boolean'],
        ['limits', 'object'],
        ['ratio', 'float'],
        ['retries', 'integer'],
      ]);

      await OpenFeature.setProviderAndWait(`in-process-${adapter.name}`, new FlagmountProvider(h.instance));
      const ofrep = new OFREPProvider({ baseUrl: h.baseUrl, headers: [['Authorization', `Bearer ${h.envs.development.secretKey}`]] });
      await OpenFeature.setProviderAndWait(`ofrep-${adapter.name}`, ofrep);
      for (const domain of [`in-process-${adapter.name}`, `ofrep-${adapter.name}`]) {
        for (const flag of manifest.body.flags) {
          const details = await evaluate(OpenFeature.getClient(domain), flag);
          expect(details.errorCode, `${domain} ${flag.key}`).toBeUndefined();
          expect(details.reason, `${domain} ${flag.key}`).toBe('TARGETING_MATCH');
        }
      }
    });
  });
});
