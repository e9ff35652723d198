import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { artifactPath, describeWithChromium, launchChromium, watchErrors } from './support/chromium.js';

/** Evaluates through the runtime API, as a browser SDK would, for one user. */
async function evaluatedFor(h: Harness, context: Record<string, string>): Promise<Record<string, { isEnabled: boolean }>> {
  const query: Record<string, string> = { publishableKey: h.envs.development.publishableKey };
  for (const [name, value] of Object.entries(context)) query[`context.${name}`] = value;
  const res = await h.request('GET', '/features/evaluated', { key: null, query });
  expect(res.status, res.text).toBe(200);
  return res.body.features;
}

describeWithChromium('dashboard in headless Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    h = await startHarness(expressFactory, { options: { dashboard: true } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('refuses a wrong key, then signs in with the management key (kept in sessionStorage)', async () => {
    await page.goto(`${h.baseUrl}/ui`);
    expect(page.url()).toBe(`${h.baseUrl}/ui/`);
    await page.fill('#management-key', 'fmk_wrong');
    await page.click('button[type=submit]');
    await page.getByRole('alert').filter({ hasText: 'refused' }).waitFor();
    errors.length = 0; // the 401 of the wrong key is logged by the browser on purpose

    await page.fill('#management-key', h.managementKey);
    await page.click('button[type=submit]');
    await page.locator('#new-flag').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('flagmount.managementKey'))).toBe(h.managementKey);
    await page.reload();
    await page.locator('#new-flag').waitFor();
  });

  it('creates a flag, targets a user and sees the change in /features/evaluated', async () => {
    await page.click('#new-flag');
    await page.fill('#new-flag-name', 'Checkout v2');
    expect(await page.inputValue('#new-flag-key')).toBe('checkout-v2');
    await page.click('#create-flag-submit');
    await page.locator('#flag-key', { hasText: 'checkout-v2' }).waitFor();
    expect((await evaluatedFor(h, { 'user.id': 'user-42' }))['checkout-v2']!.isEnabled).toBe(false);

    await page.fill('#add-user', 'user-42');
    await page.click('#target-user');
    const status = page.locator('#specific-status');
    await status.filter({ hasText: /Targeted user user-42 — flagStateVersion \d+/ }).waitFor();
    await page.locator('#user-targets', { hasText: 'user-42' }).waitFor();
    // Never seen before: the dashboard stored it (targeting needs a stored user) with an empty upsert.
    expect(await h.storage.entities.get(h.envs.development.id, 'user', 'user-42')).toMatchObject({ id: 'user-42', name: null, attributes: {} });

    expect((await evaluatedFor(h, { 'user.id': 'user-42' }))['checkout-v2']!.isEnabled).toBe(true);
    expect((await evaluatedFor(h, { 'user.id': 'user-43' }))['checkout-v2']!.isEnabled).toBe(false);

    // A company already stored keeps its name and attributes when the dashboard targets it.
    const acme = await h.request('PUT', `/apps/${h.appId}/envs/${h.envs.development.id}/companies/acme`, { body: { name: 'Acme', attributes: { plan: 'gold' } } });
    expect(acme.status, acme.text).toBe(200);
    await page.fill('#add-company', 'acme');
    await page.click('#target-company');
    await status.filter({ hasText: /Targeted company acme — flagStateVersion \d+/ }).waitFor();
    await page.locator('#company-targets', { hasText: 'acme' }).waitFor();
    expect(await h.storage.entities.get(h.envs.development.id, 'company', 'acme')).toMatchObject({ name: 'Acme', attributes: { plan: 'gold' } });
    expect((await evaluatedFor(h, { 'user.id': 'user-43', 'company.id': 'acme' }))['checkout-v2']!.isEnabled).toBe(true);
  });

  it('edits targeting rules (attribute condition, percentage rollout) and shows the flagStateVersion', async () => {
    await page.click('#add-rule');
    const rule = page.locator('.rule').last();
    await rule.locator('.add-condition').click();
    await rule.locator('.condition .field').first().fill('company.plan');
    await rule.locator('.condition .operator').first().selectOption('IS');
    await rule.locator('.condition .values').first().fill('enterprise');
    await page.click('#save-targeting');
    await page.locator('#targeting-status').filter({ hasText: /Saved — flagStateVersion \d+ in Development/ }).waitFor();

    expect((await evaluatedFor(h, { 'user.id': 'u-x', 'company.id': 'c1', 'company.plan': 'enterprise' }))['checkout-v2']!.isEnabled).toBe(true);
    expect((await evaluatedFor(h, { 'user.id': 'u-x', 'company.id': 'c1', 'company.plan': 'free' }))['checkout-v2']!.isEnabled).toBe(false);

    await page.locator('.rule').last().locator('.add-rollout').click();
    await page.locator('.rule').last().locator('.percent').fill('100');
    await page.click('#save-targeting');
    await page.locator('#targeting-status').filter({ hasText: /Saved/ }).waitFor();
    const stored = await h.request('GET', `/apps/${h.appId}/flags/checkout-v2/targeting/${h.envs.development.id}`);
    expect(stored.body.rules).toEqual([
      {
        filter: {
          type: 'group',
          operator: 'and',
          filters: [
            { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] },
            // The server fills in the rollout's key (the flag's) that the form leaves out.
            { type: 'rolloutPercentage', key: 'checkout-v2', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 100_000 },
          ],
        },
      },
    ]);
    // Read back with its key, the rollout is still one the form shows and edits.
    await page.reload();
    await expect.poll(() => page.locator('.rule').last().locator('.percent').inputValue()).toBe('100');
    await page.screenshot({ path: artifactPath('dashboard-flag.png'), fullPage: true });
  });

  it('lists and searches flags with stage, owner, stale and last-check columns, and shows checks per day', async () => {
    const check = await h.request('POST', '/features/events', {
      key: h.envs.development.secretKey,
      body: { action: 'check', key: 'checkout-v2', evalResult: true, evalContext: { user: { id: 'user-42' } } },
    });
    expect(check.status, check.text).toBe(200);
    await h.instance.services.ingestion.flush();
    await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'other-flag', name: 'Other flag' } });

    await page.goto(`${h.baseUrl}/ui/#/`);
    await page.reload(); // the app list is read at sign-in
    await page.locator('tr[data-flag-key="other-flag"]').waitFor();
    const headers = await page.locator('table.flags th').allTextContents();
    expect(headers).toEqual(['Key', 'Name', 'Stage', 'Owner', 'Stale', 'Last check']);
    await expect.poll(() => page.locator('tr[data-flag-key="checkout-v2"] td').last().textContent()).toBe('just now');

    await page.fill('#flag-search', 'checkout');
    await page.locator('tr[data-flag-key="other-flag"]').waitFor({ state: 'detached' });
    await page.click('tr[data-flag-key="checkout-v2"] a');
    await page.locator('#checks-total', { hasText: '1 checks in the last 30 days' }).waitFor();
    expect(await page.locator('#checks-chart rect.bar').count()).toBe(30);
  });

  it('shows the audit history with diffs, and archives a flag', async () => {
    await page.locator('#history ol.audit li').first().waitFor();
    expect(await page.locator('#history').textContent()).toMatch(/specificTarget|targeting/i);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('#archive-flag');
    await page.locator('#flag-status', { hasText: 'Archived' }).waitFor();
    expect((await evaluatedFor(h, { 'user.id': 'user-42' }))['checkout-v2']).toBeUndefined();
  });

  it('shows environments with their SDK keys, and rotates a key', async () => {
    await page.goto(`${h.baseUrl}/ui/#/environments`);
    const dev = page.locator(`tr[data-env-id="${h.envs.development.id}"]`);
    await dev.waitFor();
    expect(await dev.locator('[data-key-kind=publishable]').textContent()).toBe(h.envs.development.publishableKey);
    expect(await dev.locator('[data-key-kind=secret]').textContent()).not.toContain(h.envs.development.secretKey);
    page.once('dialog', (dialog) => void dialog.accept());
    await dev.locator('.rotate').first().click();
    await page.locator('#env-status', { hasText: 'Rotated the publishable key' }).waitFor();
    const rotated = await page.locator(`tr[data-env-id="${h.envs.development.id}"] [data-key-kind=publishable]`).textContent();
    expect(rotated).not.toBe(h.envs.development.publishableKey);
    await page.screenshot({ path: artifactPath('dashboard-environments.png'), fullPage: true });
  });

  it('switches between the apps of the organisation', async () => {
    const created = await h.request('POST', '/apps', { body: { name: 'Second app' } });
    expect(created.status, created.text).toBe(200);
    const secondId = created.body.id;
    await page.goto(`${h.baseUrl}/ui/#/`);
    await page.reload(); // the app list is read at sign-in
    await page.locator('tr[data-flag-key="other-flag"]').waitFor();
    await page.locator('#app-select').selectOption({ label: 'Second app' });
    await page.locator('#app-select').waitFor();
    await expect.poll(() => page.locator('#app-select').inputValue()).toBe(secondId);
    await page.locator('#flag-table', { hasText: 'No flags yet.' }).waitFor();
    expect(errors).toEqual([]);
  });
});
