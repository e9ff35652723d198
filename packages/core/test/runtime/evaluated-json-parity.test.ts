import { describe, expect, it } from 'vitest';
import { evaluateFeatures } from '../../src/runtime/features/evaluate.js';
import { evaluatedFeaturesBody } from '../../src/runtime/features/evaluated-json.js';
import type { OptInIndex } from '../../src/runtime/features/opt-in-index.js';
import { EnvironmentState } from '../../src/snapshot/environment-state.js';
import type { FlagRecord } from '../../src/storage/records.js';

const at = '2025-01-01T00:00:00.000Z';
const flag = (id: string, key: string, extra: Partial<FlagRecord> = {}): FlagRecord => ({
  id, appId: 'ap', key, name: `Name of ${key}`, description: null, stageId: null, ownerUserId: null, parentFlagId: null,
  archived: false, permanent: false, secret: false, createdAt: at, updatedAt: at, rolledOutToEveryoneAt: null,
  codeRefsCleanedUp: false, codeRefsMarkedCleanUserName: null, codeRefsMarkedCleanAt: null, ...extra,
});

// The fast serializer of /features/evaluated must write exactly what JSON.stringify of the object answer writes.
const state = new EnvironmentState({
  environment: { id: 'en', appId: 'ap', name: 'Dev', isProduction: false, order: 0, flagStateVersion: 7, publishableKey: 'p', secretKey: 's', createdAt: at },
  flags: [
    flag('f1', 'plain'),
    flag('f2', '__proto__', { name: 'Quoted "name" ✓ \u2028', description: 'line\nbreak' }),
    flag('f3', 'constructor', { secret: true }),
    flag('f4', 'staged', { stageId: 'st1' }),
    flag('f5', 'configured'),
    flag('f6', 'needs-field'),
    flag('f7', '123'),
    // A run of fixed entries (context-free, not secret, nobody opted in) that enabledOnly leaves empty.
    flag('f8', 'zz-off-1'),
    flag('f9', 'zz-off-2', { description: 'last' }),
    // Prerequisites nested two deep: gated-2 requires gated-1 off, gated-1 requires needs-field on.
    flag('f10', 'gated-1'),
    flag('f11', 'gated-2'),
  ],
  targeting: [
    { flagId: 'f1', envId: 'en', version: 2, rules: [{ filter: { type: 'constant', value: true } }], configVersion: 0, variants: [], updatedAt: at },
    { flagId: 'f5', envId: 'en', version: 1, rules: [{ filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } }], configVersion: 3,
      variants: [{ key: 'blue', payload: { color: 'blue', n: [1, 2] }, filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } }], updatedAt: at },
    { flagId: 'f6', envId: 'en', version: 4, rules: [{ filter: { type: 'context', field: 'company.tier', operator: 'GT', values: ['2'] } }, { filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50000 } }], configVersion: 0, variants: [], updatedAt: at },
    { flagId: 'f10', envId: 'en', version: 1, rules: [{ filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 70000 } }], configVersion: 0, variants: [], updatedAt: at,
      prerequisites: [{ flagKey: 'needs-field', isEnabled: true }] },
    { flagId: 'f11', envId: 'en', version: 1, rules: [{ filter: { type: 'constant', value: true } }], configVersion: 0, variants: [], updatedAt: at,
      prerequisites: [{ flagKey: 'gated-1', isEnabled: false }, { flagKey: 'configured', isEnabled: true }] },
  ],
  specificTargets: [{ flagId: 'f7', envId: 'en', entityType: 'user', entityId: 'u1', createdAt: at }],
  segments: [],
  stages: [{ id: 'st1', appId: 'ap', name: 'Beta', color: '#f59e0b', order: 2 }],
});

const optIns: OptInIndex = { users: new Map([['f7', new Set(['u1'])]]), companies: new Map() };
const contexts = [{}, { user: { id: 'u1', plan: 'pro' } }, { user: { id: 'u3', plan: 'free' }, company: { id: 'c2', tier: 1 } }, { user: { id: 'u2' }, company: { id: 'c1', tier: 3 } }, { company: { id: 'c9' } }];
const keys = [undefined, 'plain', '__proto__', 'constructor', 'configured', 'missing', 'zz-off-2', 'gated-1', 'gated-2'];

describe('evaluatedFeaturesBody', () => {
  it('writes exactly JSON.stringify(evaluateFeatures(...)) for every option combination, written and then kept', () => {
    let compared = 0;
    const written: Array<[Buffer, string]> = [];
    // The first pass writes each entry; the second finds most of them among the outcomes already written.
    for (const context of [...contexts, ...contexts]) {
      for (const key of keys) {
        for (const enabledOnly of [false, true]) {
          for (const includeSecret of [false, true]) {
            for (const optInEnabled of [false, true]) {
              const options = { key, enabledOnly, includeSecret, optInEnabled };
              const used = compared % 2 === 0;
              const features = evaluateFeatures(state, context, optIns, options);
              const expected = JSON.stringify({ success: true, flagStateVersion: 7, features, remoteContextUsed: used });
              const body = evaluatedFeaturesBody(state, context, optIns, options, used);
              expect(body.toString('utf8'), JSON.stringify({ context, options })).toBe(expected);
              written.push([body, expected]);
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBe(720);
    // Bodies share slabs: a later answer never overwrites an earlier one that a socket may still be sending.
    for (const [body, expected] of written) expect(body.equals(Buffer.from(expected))).toBe(true);
  });
});
