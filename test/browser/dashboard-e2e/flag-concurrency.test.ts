import { expect, it } from 'vitest';
import { describeWithChromium } from '../support/chromium.js';
import { SUITE_TIMEOUT, useDashboard } from './support/session.js';

const EVERYONE = { rules: [{ filter: { type: 'constant', value: true } }] };

/**
 * Two people edit the same targeting: the dashboard saves with the version it loaded (`ifVersion`), so the second
 * save is refused and shown as a conflict instead of silently overwriting the first.
 */
describeWithChromium('flag page: concurrent targeting edits in Chromium', () => {
  const session = useDashboard({}, async ({ h }) => {
    const created = await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'race', name: 'Race' } });
    expect(created.status, created.text).toBe(200);
  });

  it('reports the other save, keeps it, and saves after a reload', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    const path = `/apps/${h.appId}/flags/race/targeting/${h.envs.development.id}`;
    await s.open('flags/race', 'Race');
    await page.getByLabel('Environment', { exact: true }).last().selectOption(h.envs.development.id);
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('.rule').first().getByLabel('Attribute').fill('user.plan');
    await page.locator('.rule').first().getByLabel('Value for user.plan').fill('pro');

    // Someone else saves first, through the API.
    const other = await h.request('PUT', path, { body: EVERYONE });
    expect(other.status, other.text).toBe(200);

    await page.getByRole('button', { name: 'Save targeting in Development' }).click();
    await page.getByRole('alert').filter({ hasText: 'Someone else saved a change here' }).waitFor();
    expect((await h.request('GET', path)).body.rules).toEqual(EVERYONE.rules);
    s.errors.length = 0; // the refused PUT (400) is logged by the browser on purpose

    await page.getByRole('button', { name: 'Reload' }).click();
    await page.locator('.rule').first().getByLabel('Matches').waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('.rule').nth(1).getByLabel('Attribute').fill('user.plan');
    await page.locator('.rule').nth(1).getByLabel('Value for user.plan').fill('pro');
    await page.getByRole('button', { name: 'Save targeting in Development' }).click();
    await page.getByText('Saved targeting of Race in Development').waitFor();
    const saved = (await h.request('GET', path)).body;
    expect(saved.rules).toEqual([...EVERYONE.rules, { filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } }]);
    expect(saved.version).toBe(2);
    await s.check('flag-after-conflict');
  });
});
