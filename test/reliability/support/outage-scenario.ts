import type { ApiResponse, Harness } from '../../http/support/harness.js';
import { errorBodyProblems } from './error-body.js';
import { sleep, type Backend } from './outage-backends.js';

/**
 * The outage story against one backend (serve, lose the database, keep evaluating, refuse writes, get it back,
 * resume without help), with the writes it must refuse and the evaluation answers it must keep giving.
 */

export const ok = (res: ApiResponse, what: string) => {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** Every flag-state write the outage must refuse, and a runtime write of each kind. */
function writes(h: Harness, tag: string, flagId: string): Array<{ name: string; send: () => Promise<ApiResponse> }> {
  const { appId } = h;
  const dev = h.envs.development;
  const sdk = { key: dev.secretKey };
  return [
    { name: 'create flag', send: () => h.request('POST', `/apps/${appId}/flags`, { body: { key: `during-${tag}`, name: 'During' } }) },
    { name: 'update flag', send: () => h.request('PATCH', `/apps/${appId}/flags/${flagId}`, { body: { description: `changed ${tag}` } }) },
    { name: 'put targeting', send: () => h.request('PUT', `/apps/${appId}/flags/steady/targeting/${dev.id}`, { body: { rules: [] } }) },
    { name: 'specific target', send: () => h.request('PATCH', `/apps/${appId}/envs/${dev.id}/users/u1/flags`, { body: { updates: [{ flagKey: 'steady', specificTargetValue: true }] } }) },
    { name: 'upsert user', send: () => h.request('PUT', `/apps/${appId}/envs/${dev.id}/users/u-${tag}`, { body: { name: 'U', attributes: { a: 1 } } }) },
    { name: 'create stage', send: () => h.request('POST', `/apps/${appId}/stages`, { body: { name: `Stage ${tag}`, color: 'red' } }) },
    { name: 'POST /event', send: () => h.request('POST', '/event', { ...sdk, body: { userId: 'u1', event: `e-${tag}` } }) },
    { name: 'POST /user', send: () => h.request('POST', '/user', { ...sdk, body: { userId: `u-${tag}`, attributes: { x: 1 } } }) },
    { name: 'POST /company', send: () => h.request('POST', '/company', { ...sdk, body: { companyId: `c-${tag}`, userId: 'u1' } }) },
    { name: 'POST /features/events', send: () => h.request('POST', '/features/events', { ...sdk, body: { action: 'check', key: 'steady', evalResult: true, evalContext: { user: { id: 'u1' } } } }) },
    { name: 'POST /bulk', send: () => h.request('POST', '/bulk', { ...sdk, body: [{ type: 'user', userId: `b-${tag}` }, { type: 'event', userId: 'u1', event: `b-${tag}` }] }) },
    { name: 'POST /feedback', send: () => h.request('POST', '/feedback', { ...sdk, body: { userId: 'u1', key: 'steady', score: 4 } }) },
  ];
}

const context = { user: { id: 'u1' }, enableTracking: false } as const;

/** What evaluation answers must keep showing: `steady` on for u1 in Development. */
async function evaluationProblems(h: Harness, waitForVersion?: number): Promise<string[]> {
  const problems: string[] = [];
  const query: Record<string, string | number> = { contextJson: JSON.stringify({ user: { id: 'u1' } }) };
  if (waitForVersion !== undefined) query['waitForVersion'] = waitForVersion;
  for (const path of ['/features/evaluated', '/features/enabled']) {
    const res = await h.request('GET', path, { key: h.envs.development.publishableKey, query });
    if (res.status !== 200) problems.push(`${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
    else if (res.body.features?.steady?.isEnabled !== true) problems.push(`${path}: steady is not on (${res.text.slice(0, 200)})`);
  }
  const features = await h.request('GET', '/features', { key: h.envs.development.secretKey });
  if (features.status !== 200) problems.push(`/features answered ${features.status}`);
  const ofrep = await h.request('POST', '/ofrep/v1/evaluate/flags/steady', { key: h.envs.development.secretKey, body: { context: { targetingKey: 'u1' } } });
  if (ofrep.status !== 200 || ofrep.body.value !== true) problems.push(`OFREP answered ${ofrep.status}: ${ofrep.text.slice(0, 200)}`);
  if (!h.instance.client.isEnabled('steady', context)) problems.push('client.isEnabled(steady) is false');
  if (!h.instance.client.getFlags(context)['steady']?.isEnabled) problems.push('client.getFlags() lost steady');
  return problems;
}

export interface OutageRun {
  problems: string[];
  idleCalls?: number;
  evaluations: number;
  refusedWrites: number;
  resumedAfterMs: number | undefined;
}

/**
 * The whole story against one backend: serve, lose the database for `outageMs`, keep evaluating, refuse writes,
 * get the database back, resume without help. `resumeLimitMs` bounds the wait for the first accepted write.
 */
export async function outageScenario(h: Harness, backend: Backend, outageMs = 2500, resumeLimitMs = 20_000): Promise<OutageRun> {
  const problems: string[] = [];
  const dev = h.envs.development;
  const { flag } = ok(await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'steady', name: 'Steady' } }), 'create steady');
  ok(await h.request('PUT', `/apps/${h.appId}/flags/steady/targeting/${dev.id}`, { body: { rules: [{ filter: { type: 'constant', value: true } }] } }), 'target steady');
  ok(await h.request('PUT', `/apps/${h.appId}/envs/${dev.id}/users/u1`, { body: { name: 'U1', attributes: { plan: 'pro' } } }), 'user');
  problems.push(...(await evaluationProblems(h)).map((p) => `before the outage: ${p}`));
  await h.instance.client.flush();
  // OFREP evaluations record their checks without waiting for the commit: the baseline waits for those to land (a
  // busy machine committed one while the dump below was reading, and the run saw a change that was no write's).
  await h.instance.services.ingestion.flush();
  const before = JSON.stringify(await h.storage.dump());
  const version = (await h.storage.environments.get(dev.id))!.flagStateVersion;

  await backend.goAway();
  // A reload attempt against the missing store (waitForVersion asks for one), then quiet: the cache must retry on
  // its timer (about once a second), not at once in a loop that would eat the host's CPU and starve its event loop.
  await h.request('GET', '/features/enabled', { key: dev.publishableKey, query: { waitForVersion: version + 1 } });
  const callsBefore = backend.control.calls;
  await sleep(1200);
  const idleCalls = backend.control.calls - callsBefore;
  if (idleCalls > 20) problems.push(`${idleCalls} store calls in 1.2 s of idle outage: something retries in a loop`);
  const until = Date.now() + outageMs;
  let evaluations = 0;
  let refusedWrites = 0;
  let round = 0;
  while (Date.now() < until || round === 0) {
    // Spans several of the snapshot cache's 1 s retries; waitForVersion makes it try to reload at once, too.
    const found = await evaluationProblems(h, round % 2 ? version + 1 : undefined);
    problems.push(...found.map((p) => `during the outage: ${p}`));
    evaluations++;
    for (const write of writes(h, `o${round}`, flag.id)) {
      const res = await write.send();
      if (res.status !== 503) problems.push(`during the outage, ${write.name} answered ${res.status}: ${res.text.slice(0, 200)}`);
      else {
        refusedWrites++;
        for (const p of errorBodyProblems(res.status, res.headers.get('content-type'), res.text)) problems.push(`${write.name}: ${p}`);
        if (res.body?.error?.code !== 'not_available') problems.push(`${write.name}: code ${res.body?.error?.code}`);
      }
    }
    await h.instance.client.track('u1', 'in-process').then(
      () => problems.push('during the outage, client.track() resolved'),
      () => refusedWrites++,
    );
    const host = await fetch(`${h.origin}/host/ping`);
    if (host.status !== 200) problems.push(`the host answered ${host.status}`);
    round++;
    await sleep(150);
  }

  await backend.comeBack();
  const comeBackAt = Date.now();
  // Nothing any refused write did is in the store (the first dump may wait for the pool to reconnect).
  let after: string | undefined;
  while (after === undefined && Date.now() - comeBackAt < resumeLimitMs) {
    after = await h.storage.dump().then(JSON.stringify, async () => {
      await sleep(100);
      return undefined;
    });
  }
  if (after !== before) problems.push('the store changed during the outage although every write was refused (half-applied)');

  // Resumes on its own: no restart, no call to anything but the API.
  let resumedAfterMs: number | undefined;
  while (Date.now() - comeBackAt < resumeLimitMs) {
    const res = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'after-outage', name: 'After' } });
    if (res.status === 200) {
      resumedAfterMs = Date.now() - comeBackAt;
      break;
    }
    if (res.status !== 503) problems.push(`while resuming, a write answered ${res.status}: ${res.text.slice(0, 200)}`);
    await sleep(100);
  }
  if (resumedAfterMs === undefined) {
    problems.push(`writes did not resume within ${resumeLimitMs} ms of the database coming back`);
    return { problems, evaluations, refusedWrites, resumedAfterMs };
  }
  const targeted = await h.request('PUT', `/apps/${h.appId}/flags/after-outage/targeting/${dev.id}`, { body: { rules: [{ filter: { type: 'constant', value: true } }] } });
  if (targeted.status !== 200) problems.push(`targeting after the outage answered ${targeted.status}`);
  const v = targeted.body?.flagStateVersion ?? targeted.body?.flagStateVersions?.[dev.id];
  const fresh = await h.request('GET', '/features/enabled', { key: dev.publishableKey, query: { waitForVersion: v ?? 0 } });
  if (fresh.status !== 200 || !fresh.body.features?.['after-outage']) problems.push(`after the outage the snapshot did not move on: ${fresh.text.slice(0, 200)}`);
  const deadline = Date.now() + 10_000;
  while (!h.instance.client.isEnabled('after-outage', context) && Date.now() < deadline) await sleep(50);
  if (!h.instance.client.isEnabled('after-outage', context)) problems.push('the in-process client did not see the flag created after the outage');
  const event = await h.request('POST', '/event', { key: dev.secretKey, body: { userId: 'u1', event: 'after' } });
  if (event.status !== 200) problems.push(`ingestion after the outage answered ${event.status}`);
  return { problems, evaluations, refusedWrites, resumedAfterMs };
}
