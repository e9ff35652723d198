import { ReflagClient } from '@reflag/node-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { forEachAdapter } from '../http/support/harness.js';
import { captureLogger, createFlag, putTargeting, targetUser } from './support.js';

const clients: ReflagClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
});

const contexts = [
  { user: { id: 'u1', plan: 'pro' }, company: { id: 'c1', seats: 12 } },
  { user: { id: 'u2' } },
  { company: { id: 'c2' }, other: { page: 'checkout' } },
  {},
  { user: { id: 'u3', plan: 'free' }, enableTracking: false },
];

forEachAdapter((h) => {
  describe("getFlagsForBootstrap: the in-process client answers what @reflag/node-sdk's does against the mount", () => {
    it('deep-equals the SDK for rules, rollouts, config variants, specific targets and missing fields', async () => {
      const dev = h().envs.development.id;
      await createFlag(h(), 'plain');
      await createFlag(h(), 'pro-only');
      await putTargeting(h(), 'pro-only', dev, [{ type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] }]);
      await createFlag(h(), 'half');
      await putTargeting(h(), 'half', dev, [{ type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50_000 }]);
      await createFlag(h(), 'configured');
      await putTargeting(h(), 'configured', dev, [{ type: 'constant', value: true }], [
        { key: 'big', payload: { size: 3 }, filter: { type: 'context', field: 'company.seats', operator: 'GT', values: ['10'] } },
        { key: 'small', payload: 1, filter: { type: 'constant', value: true } },
      ]);
      await createFlag(h(), 'targeted');
      await targetUser(h(), dev, 'u2', 'targeted');

      const log = captureLogger();
      const sdk = new ReflagClient({
        secretKey: h().envs.development.secretKey,
        apiBaseUrl: h().baseUrl,
        flagsSyncMode: 'polling',
        offline: false,
        logger: log.logger,
        batchOptions: { flushOnExit: false },
      });
      clients.push(sdk);
      await sdk.initialize();
      const inProcess = h().instance.clientFor(dev);
      for (const context of contexts) {
        const theirs = sdk.getFlagsForBootstrap(context);
        const ours = inProcess.getFlagsForBootstrap(context);
        expect(ours).toEqual(theirs);
        // Serialised into a page, byte for byte the same data.
        expect(JSON.parse(JSON.stringify(ours))).toStrictEqual(JSON.parse(JSON.stringify(theirs)));
        // And the same through a bound client.
        expect(inProcess.bindClient(context).getFlagsForBootstrap()).toEqual(theirs);
      }
      expect(inProcess.getFlagsForBootstrap(contexts[0]!).flagStateVersion).toBe(sdk.getFlagsForBootstrap({}).flagStateVersion);
      expect(inProcess.getFlagsForBootstrap(contexts[0]!).flags['configured']!.config).toMatchObject({ key: 'big', payload: { size: 3 } });
      expect(log.problems()).toEqual([]);
    });
  });
});
