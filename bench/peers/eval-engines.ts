import { GrowthBookClient } from '@growthbook/growthbook';
import {
  basicLogger,
  init as initLaunchDarkly,
  integrations,
  type LDClient,
} from '@launchdarkly/node-server-sdk';
import { FlagdCore } from '@openfeature/flagd-core';
import { newEvaluator } from '@reflag/flag-evaluation';
import { InMemStorageProvider, Unleash } from 'unleash-client';
import type { FeatureInterface } from 'unleash-client/lib/feature';
import type { Constraint } from 'unleash-client/lib/strategy/strategy';
import type { FlagDefinition } from '@flagmount/engine';

/**
 * The eval bench's flag in every engine's own format (rule 1 `company.plan IS enterprise`, rule 2 a 50% rollout on
 * the user id), and each engine set up offline over it: no network, no events, no polling. Flagmount's definition
 * is here too because the Reflag library evaluates the very same rules.
 */

// ---------------------------------------------------------------- flag definitions, one per engine

export const flagmountFlag = (key: string): FlagDefinition => ({
  key,
  targetingVersion: 1,
  rules: [
    { filter: { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] } },
    {
      filter: { type: 'rolloutPercentage', key, partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50_000 },
    },
  ],
});

const flagdFlag = (key: string) => ({
  state: 'ENABLED',
  variants: { on: true, off: false },
  defaultVariant: 'off',
  targeting: {
    if: [
      { '==': [{ var: 'company.plan' }, 'enterprise'] },
      'on',
      { fractional: [{ cat: [{ var: '$flagd.flagKey' }, { var: 'user.id' }] }, ['on', 50], ['off', 50]] },
    ],
  },
});

const growthbookFeature = {
  defaultValue: false,
  rules: [
    { condition: { 'company.plan': 'enterprise' }, force: true },
    { force: true, coverage: 0.5, hashAttribute: 'id' },
  ],
};

const unleashFeature = (key: string): FeatureInterface => ({
  name: key,
  enabled: true,
  type: 'release',
  project: 'default',
  stale: false,
  impressionData: false,
  variants: [],
  strategies: [
    {
      name: 'default',
      parameters: {},
      constraints: [
        {
          contextName: 'companyPlan',
          operator: 'IN' as Constraint['operator'],
          values: ['enterprise'],
          inverted: false,
          caseInsensitive: false,
        },
      ],
    },
    { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: key }, constraints: [] },
  ],
});

const launchDarklyFlag = (key: string) => ({
  key,
  version: 1,
  on: true,
  salt: key,
  variations: [true, false],
  offVariation: 1,
  targets: [],
  contextTargets: [],
  prerequisites: [],
  rules: [
    {
      id: 'enterprise',
      variation: 0,
      clauses: [{ contextKind: 'company', attribute: 'plan', op: 'in', values: ['enterprise'], negate: false }],
    },
  ],
  fallthrough: {
    rollout: {
      contextKind: 'user',
      bucketBy: 'key',
      variations: [
        { variation: 0, weight: 50_000 },
        { variation: 1, weight: 50_000 },
      ],
    },
  },
  trackEvents: false,
  clientSideAvailability: { usingEnvironmentId: false, usingMobileKey: false },
});

// ---------------------------------------------------------------- engines

export const silentLogger = { error() {}, warn() {}, info() {}, debug() {} };

export async function launchDarkly(flags: string[]): Promise<LDClient> {
  const td = new integrations.TestData();
  for (const key of flags) await td.usePreconfiguredFlag(launchDarklyFlag(key));
  const client = initLaunchDarkly('sdk-bench-offline', {
    updateProcessor: td.getFactory(),
    sendEvents: false,
    diagnosticOptOut: true,
    logger: basicLogger({ level: 'none' }),
  });
  await client.waitForInitialization({ timeout: 10 });
  return client;
}

export async function unleash(key: string): Promise<Unleash> {
  const client = new Unleash({
    appName: 'flagmount-bench',
    url: 'http://127.0.0.1:9/unleash', // never fetched: refreshInterval 0
    refreshInterval: 0,
    disableMetrics: true,
    skipInstanceCountWarning: true,
    storageProvider: new InMemStorageProvider(),
    bootstrap: { data: [unleashFeature(key)] },
  });
  client.on('error', () => undefined);
  client.on('warn', () => undefined);
  await new Promise<void>((resolve) =>
    client.isSynchronized() ? resolve() : client.once('synchronized', () => resolve()),
  );
  return client;
}

export function flagd(keys: string[]): FlagdCore {
  const core = new FlagdCore(undefined, silentLogger);
  const flags = Object.fromEntries(keys.map((key) => [key, flagdFlag(key)]));
  core.setConfigurations(JSON.stringify({ flags }));
  return core;
}

export function growthbookClient(key: string): GrowthBookClient {
  return new GrowthBookClient().initSync({ payload: { features: { [key]: growthbookFeature } } });
}

export function reflagEvaluator(key: string): ReturnType<typeof newEvaluator> {
  return newEvaluator(flagmountFlag(key).rules.map((rule) => ({ filter: rule.filter as never, value: true })));
}
