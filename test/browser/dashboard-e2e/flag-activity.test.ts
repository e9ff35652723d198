import { expect, it } from 'vitest';
import { artifactPath, describeWithChromium } from '../support/chromium.js';
import { SUITE_TIMEOUT, useDashboard } from './support/session.js';

const PRO = { rules: [{ filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } }] };

/**
 * The flag page's activity (issue 37): checks, exposures and tracks per day in one uPlot chart with its legend and
 * an accessible table; and a brand-new flag is "new", not stale, in the badge, the list and the stale filter alike.
 */
describeWithChromium('flag page: activity chart and health in Chromium', () => {
  const session = useDashboard({}, async ({ h }) => {
    expect((await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'checkout', name: 'Checkout' } })).status).toBe(200);
    expect((await h.request('PUT', `/apps/${h.appId}/flags/checkout/targeting/${h.envs.development.id}`, { body: PRO })).status).toBe(200);
    // What SDKs send: 5 checks in Development, 3 of them answered true (exposures), a track; 2 checks in Production, 1 true.
    const send = async (env: 'development' | 'production', path: string, body: unknown) => {
      const res = await h.request('POST', path, { key: h.envs[env].secretKey, body });
      expect(res.status, res.text).toBe(200);
    };
    const event = (evalResult: boolean, userId: string) => ({ action: 'check', key: 'checkout', evalContext: { user: { id: userId } }, evalResult });
    for (const [result, user] of [[true, 'u1'], [true, 'u2'], [true, 'u3'], [false, 'u4'], [false, 'u5']] as const) await send('development', '/features/events', event(result, user));
    await send('development', '/event', { event: 'checkout', userId: 'u1' });
    await send('production', '/bulk', [
      { type: 'feature-flag-event', ...event(true, 'p1') },
      { type: 'feature-flag-event', ...event(false, 'p2') },
    ]);
  });

  it('charts checks, exposures and tracks per environment, with a legend and a table of totals', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page } = s;
    await s.open('flags/checkout', 'Checkout');
    const activity = page.getByRole('region', { name: 'Activity' });
    const legend = activity.locator('.u-legend .u-series .u-label');
    await legend.filter({ hasText: 'Production tracks' }).waitFor();
    expect(await legend.allTextContents()).toEqual([
      'Day (UTC)',
      'Development checks',
      'Development exposures',
      'Development tracks',
      'Production checks',
      'Production exposures',
      'Production tracks',
    ]);
    const totals = activity.getByRole('table', { name: /Checks, exposures and tracks per environment/ });
    const row = async (env: string) => (await totals.getByRole('row', { name: new RegExp(`^${env}`) }).getByRole('cell').allTextContents()).map(Number);
    expect(await row('Development')).toEqual([5, 3, 1]);
    expect(await row('Production')).toEqual([2, 1, 0]);
    // The health badge: created just now and checked, so active.
    expect(await activity.locator('.badge').first().textContent()).toBe('active');
    await activity.scrollIntoViewIfNeeded();
    await activity.screenshot({ path: artifactPath('dashboard-flag-activity-chart.png') });
    await s.check('flag-activity');
  });

  it('calls a brand-new flag "new", never stale, on its page, in the list and under the stale filter (the API agrees)', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    expect((await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'fresh', name: 'Fresh' } })).status).toBe(200);
    const api = (await h.request('GET', `/apps/${h.appId}/flags`, { query: { stale: true } })).body;
    expect(api.data).toEqual([]);

    await s.open('flags', 'Flags');
    const freshRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Fresh' }) });
    expect(await freshRow.locator('.badge').last().textContent()).toBe('new');
    await page.getByLabel('Health').selectOption('true');
    await page.getByText('No flag matches these filters.').waitFor();
    await page.getByLabel('Health').selectOption('false');
    await page.getByRole('link', { name: 'Fresh' }).waitFor();

    await s.open('flags/fresh', 'Fresh');
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByText(/not checked by any code yet\. It becomes stale if nothing checks it within 30 days of its creation/).waitFor();
    expect(await activity.locator('.badge').first().textContent()).toBe('new');
    await s.check('flag-new');
  });
});
