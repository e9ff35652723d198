import { StorageUnavailableError } from '@flagmount/core';
import type { ApiResponse, Harness } from '../../http/support/harness.js';
import type { StorageControl } from '../../support/storage-wrappers.js';
import { errorBodyProblems } from './error-body.js';
import { ok } from './outage-scenario.js';

/**
 * Each write, failing at each repository call of its transaction in turn (the database dies mid-transaction):
 * 503 with the error body, the store unchanged; until the failure point lies past the last call and it succeeds.
 */
export async function midTransactionProblems(h: Harness, control: StorageControl): Promise<{ problems: string[]; failurePoints: number }> {
  const problems: string[] = [];
  const dev = h.envs.development;
  const sdk = { key: dev.secretKey };
  ok(await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'target', name: 'Target' } }), 'flag');
  // The user `specific target` addresses must be stored before it can be targeted.
  ok(await h.request('PUT', `/apps/${h.appId}/envs/${dev.id}/users/u9`, { body: {} }), 'user');
  const cases: Array<{ name: string; send: () => Promise<ApiResponse> }> = [
    { name: 'create flag', send: () => h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'atomic', name: 'Atomic', description: 'd' } }) },
    { name: 'put targeting', send: () => h.request('PUT', `/apps/${h.appId}/flags/target/targeting/${dev.id}`, { body: { rules: [{ filter: { type: 'constant', value: true } }] } }) },
    { name: 'specific target', send: () => h.request('PATCH', `/apps/${h.appId}/envs/${dev.id}/users/u9/flags`, { body: { updates: [{ flagKey: 'target', specificTargetValue: true }], changeDescription: 'x' } }) },
    { name: 'create app', send: () => h.request('POST', '/apps', { body: { name: 'Atomic app' } }) },
    {
      name: 'POST /bulk',
      send: () =>
        h.request('POST', '/bulk', {
          ...sdk,
          body: [
            { type: 'user', userId: 'bulk-u', attributes: { a: 1 } },
            { type: 'company', companyId: 'bulk-c', userId: 'bulk-u', attributes: { b: 2 } },
            { type: 'event', userId: 'bulk-u', event: 'target' },
            { type: 'feature-flag-event', action: 'check', key: 'target', evalResult: true, evalContext: { user: { id: 'bulk-u' } } },
          ],
        }),
    },
  ];
  let failurePoints = 0;
  for (const c of cases) {
    for (let calls = 0; ; calls++) {
      if (calls > 200) {
        problems.push(`${c.name}: still failing after 200 failure points`);
        break;
      }
      const before = JSON.stringify(await h.storage.dump());
      control.failInTransactionAfter(calls, new StorageUnavailableError(`gone after ${calls} calls`));
      const res = await c.send();
      control.failInTransactionAfter(undefined);
      if (res.status === 200) break;
      failurePoints++;
      if (res.status !== 503) problems.push(`${c.name}, failing after ${calls} calls: ${res.status} ${res.text.slice(0, 200)}`);
      problems.push(...errorBodyProblems(res.status, res.headers.get('content-type'), res.text).map((p) => `${c.name}: ${p}`));
      if (JSON.stringify(await h.storage.dump()) !== before) {
        problems.push(`${c.name}, failing after ${calls} calls: half-applied (the store changed)`);
        break;
      }
    }
  }
  return { problems, failurePoints };
}
