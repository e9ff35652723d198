import { expect, it } from 'vitest';
import { describeWithChromium } from '../support/chromium.js';
import { SUITE_TIMEOUT, useDashboard } from './support/session.js';

/** Users, Companies and the Audit, over data an app would have sent, each page scanned by axe. */
describeWithChromium('dashboard users, companies and audit in Chromium', () => {
  let entityPath: (segment: 'users' | 'companies', id: string) => string;
  const session = useDashboard({}, async ({ h }) => {
    entityPath = (segment, id) => `/apps/${h.appId}/envs/${h.envs.development.id}/${segment}/${id}`;
    expect((await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'beta-banner', name: 'Beta banner' } })).status).toBe(200);
    expect((await h.request('PUT', entityPath('users', 'u-1'), { body: { name: 'Grace', attributes: { plan: 'pro' } } })).status).toBe(200);
    expect((await h.request('PUT', entityPath('companies', 'acme'), { body: { name: 'Acme', attributes: { tier: 'gold' } } })).status).toBe(200);
  });

  it('Users: searches by id or name, shows attributes and flags, sets an attribute, adds and removes specific targeting', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('users/nobody', 'Users: nobody');
    await page.getByText(/No user with id nobody is stored in Development/).waitFor();

    await s.open('users', 'Users');
    const search = page.getByRole('search', { name: 'Search users' });
    await page.getByRole('link', { name: 'u-1', exact: true }).waitFor();
    await search.getByLabel('Search users by id or name').fill('nobody');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByText(/No user in Development has an id starting with, or a name containing, “nobody”/).waitFor();
    await search.getByLabel('Search users by id or name').fill('GRACE');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'u-1', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Users: Grace' }).waitFor();
    await page.locator('.attributes').getByText('plan').waitFor();
    const target = page.getByRole('button', { name: 'Target user u-1 with beta-banner' });
    await target.waitFor();
    await s.check('users');

    await page.getByLabel('Attribute', { exact: true }).fill('seats');
    await page.getByLabel('Value').fill('12');
    await page.getByRole('button', { name: 'Set attribute' }).click();
    await page.locator('.attributes').getByText('seats').waitFor();
    expect((await h.request('GET', entityPath('users', 'u-1'))).body.attributes).toEqual({ plan: 'pro', seats: 12 });

    await target.click();
    await page.getByRole('status').filter({ hasText: 'Targeted user u-1 with beta-banner in Development' }).waitFor();
    const flags = async () => (await h.request('GET', `${entityPath('users', 'u-1')}/flags`)).body.data[0];
    expect(await flags()).toMatchObject({ key: 'beta-banner', value: true, specificTargetValue: true });
    const row = page.locator('tr', { has: page.getByRole('link', { name: 'beta-banner' }) });
    await row.getByText('on', { exact: true }).waitFor();
    await row.getByText('targeted').waitFor();
    await row.getByRole('button', { name: 'Stop targeting user u-1 in beta-banner' }).click();
    await page.getByRole('status').filter({ hasText: 'Stopped targeting user u-1 in beta-banner' }).waitFor();
    expect(await flags()).toMatchObject({ value: false, specificTargetValue: null });
    s.expectNoErrors();
  });

  it('Companies: the same page for companies', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('companies/acme', 'Companies: Acme');
    await page.locator('.attributes').getByText('gold').waitFor();
    await s.check('companies');
    await page.getByRole('button', { name: 'Target company acme with beta-banner' }).click();
    await page.getByRole('status').filter({ hasText: 'Targeted company acme' }).waitFor();
    expect((await h.request('GET', `${entityPath('companies', 'acme')}/flags`)).body.data[0]).toMatchObject({ specificTargetValue: true });
    s.expectNoErrors();
  });

  it('Audit: readable entries with who and what, filtered by app, environment, person and action, paged', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    // More entries than one page (50) holds.
    for (let i = 0; i < 50; i++) await h.request('PUT', entityPath('users', `bulk-${i}`), { body: { attributes: { n: i } } });
    await s.open('audit', 'Audit');
    const entries = page.locator('.audit-entry');
    const filters = page.getByRole('form', { name: 'Filter the audit' });
    await expect.poll(() => entries.count()).toBe(50);
    await s.check('audit');

    await page.getByRole('button', { name: 'Load older entries' }).click();
    await expect.poll(() => entries.count()).toBeGreaterThan(50);

    await filters.getByLabel('Action').selectOption('flag.specificTarget.added');
    await expect.poll(() => entries.count()).toBe(2);
    // The target is named by the flag's key and the entity; the diff reads as fields, not flattened paths.
    const added = entries.filter({ hasText: 'for company acme' });
    await added.getByText('beta-banner').waitFor();
    expect(await added.locator('.diff').textContent()).toMatch(/specificTargetValue\s*before: none\s*→\s*after: true/);

    await filters.getByLabel('Action').selectOption('flag.created');
    await expect.poll(() => entries.count()).toBe(1);
    expect(await entries.first().textContent()).toMatch(/flag\.created.*beta-banner/);
    expect(await entries.first().locator('.diff').textContent()).toContain('after: Beta banner');

    // A prefix takes every action of a family, on the server: flag.created and the specific targets.
    await filters.getByLabel('Action').selectOption('flag.*');
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(3);
    expect(await entries.allTextContents()).not.toContainEqual(expect.stringMatching(/user\.upserted/));

    await filters.getByLabel('Action').selectOption('');
    await filters.getByLabel('Environment').selectOption({ label: 'Development' });
    // Changes made with a management key name the key; picking it from the list applies at once.
    await filters.getByLabel('Person or key').fill('Bootstrap key');
    await page.getByRole('status').filter({ hasText: '50 matching entries loaded.' }).waitFor();
    expect(await entries.first().textContent()).toContain('Bootstrap key');
    // The server filters before paging: the first page is full, and older pages continue the filtered history.
    await page.getByRole('button', { name: 'Load older entries' }).click();
    await expect.poll(() => entries.count()).toBeGreaterThan(50);
    expect(await entries.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Bootstrap key')]));
    await filters.getByLabel('App').selectOption({ label: 'My app' });
    await expect.poll(() => entries.count()).toBeGreaterThan(0);
    expect(await page.getByRole('status').filter({ hasText: /matching entries loaded/ }).count()).toBe(1);
    // Free text finds a person not on the loaded pages, here nobody.
    await filters.getByLabel('Person or key').fill('member:nobody');
    await filters.getByLabel('Person or key').press('Enter');
    await page.getByText('No entry matches these filters.').waitFor();
    s.expectNoErrors();
  });
});
