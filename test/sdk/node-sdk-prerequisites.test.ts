import type { Filter } from '@flagmount/engine';
import { ReflagClient } from '@reflag/node-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { captureLogger, createFlag } from './support.js';

/**
 * Prerequisite flags are served inlined into filters Reflag's clients already evaluate, so the real node SDK's local
 * evaluation, `/features/evaluated`, the in-process client and OFREP must agree, chains nested two deep included —
 * and agree with what a prerequisite means: on only when each prerequisite evaluates as required, then its own rules.
 */
const clients: ReflagClient[] = [];
let harness: Harness | undefined;
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await harness?.close();
  harness = undefined;
});

const rollout = (attribute: string, threshold: number): Filter => ({ type: 'rolloutPercentage', partialRolloutAttribute: attribute, partialRolloutThreshold: threshold });
const is = (field: string, value: string): Filter => ({ type: 'context', field, operator: 'IS', values: [value] });

async function put(h: Harness, key: string, rules: Filter[], prerequisites: Array<{ flagKey: string; isEnabled: boolean }> = []): Promise<void> {
  const res = await h.request('PUT', `/apps/${h.appId}/flags/${key}/targeting/${h.envs.development.id}`, {
    body: { rules: rules.map((filter) => ({ filter })), prerequisites },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('prerequisite flags: node SDK local evaluation, /features/evaluated, in-process client and OFREP agree', () => {
  it('for 400 contexts over a chain two deep, a negated prerequisite and a prerequisite with its own rollout', async () => {
    const h = (harness = await startHarness(expressFactory));
    for (const key of ['base', 'region', 'mid', 'top', 'not-base']) await createFlag(h, key);
    await put(h, 'base', [is('user.plan', 'pro'), rollout('user.id', 40_000)]);
    await put(h, 'region', [is('company.country', 'de')]);
    await put(h, 'mid', [rollout('company.id', 60_000)], [{ flagKey: 'base', isEnabled: true }]);
    await put(h, 'top', [{ type: 'constant', value: true }, rollout('user.id', 10_000)], [{ flagKey: 'mid', isEnabled: true }, { flagKey: 'region', isEnabled: false }]);
    await put(h, 'not-base', [rollout('user.id', 70_000)], [{ flagKey: 'base', isEnabled: false }]);

    const log = captureLogger();
    const client = new ReflagClient({ secretKey: h.envs.development.secretKey, apiBaseUrl: h.baseUrl, flagsSyncMode: 'polling', offline: false, logger: log.logger, batchOptions: { flushOnExit: false } });
    clients.push(client);
    await client.initialize();
    const inProcess = h.instance.clientFor(h.envs.development.id);

    const counts = { top: 0, mid: 0, notBase: 0 };
    for (let i = 0; i < 400; i++) {
      const user = { id: `user-${i}`, plan: i % 5 === 0 ? 'pro' : 'free' };
      const company = { id: `company-${i % 37}`, country: i % 3 === 0 ? 'de' : 'fr' };
      const what = JSON.stringify({ user, company });
      const evaluated = (
        await h.request('GET', '/features/evaluated', {
          key: h.envs.development.secretKey,
          query: { 'context.user.id': user.id, 'context.user.plan': user.plan, 'context.company.id': company.id, 'context.company.country': company.country },
        })
      ).body.features;
      const server = (key: string) => Boolean(evaluated[key]?.isEnabled);
      for (const key of ['base', 'region', 'mid', 'top', 'not-base']) {
        const local = client.getFlag({ user, company, enableTracking: false }, key).isEnabled;
        expect(local, `${key} ${what}: SDK local vs /features/evaluated`).toBe(server(key));
        expect(inProcess.isEnabled(key, { user, company }), `${key} ${what}: in-process`).toBe(local);
      }
      // What a prerequisite means, from the flags' own answers.
      expect(server('mid'), `mid ${what}`).toBe(server('base') && server('mid'));
      if (server('top')) expect(server('mid') && !server('region'), `top ${what}`).toBe(true);
      expect(server('top'), `top ${what}`).toBe(server('mid') && !server('region'));
      if (server('not-base')) expect(server('base')).toBe(false);
      if (i % 20 === 0) {
        const ofrep = await h.request('POST', '/ofrep/v1/evaluate/flags/top', {
          key: h.envs.development.secretKey,
          body: { context: { targetingKey: user.id, plan: user.plan, company: { id: company.id, country: company.country } } },
        });
        expect(ofrep.body.value, `top ${what}: OFREP`).toBe(server('top'));
      }
      counts.top += Number(server('top'));
      counts.mid += Number(server('mid'));
      counts.notBase += Number(server('not-base'));
    }
    // The chain is exercised both ways, not trivially off.
    for (const [key, n] of Object.entries(counts)) {
      expect(n, key).toBeGreaterThan(20);
      expect(n, key).toBeLessThan(380);
    }
    expect(log.problems()).toEqual([]);
  }, 60_000);
});
