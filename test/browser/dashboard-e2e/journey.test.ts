import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { Harness } from '../../http/support/harness.js';
import { describeWithChromium } from '../support/chromium.js';
import { artifactPath } from '../support/chromium.js';
import { SUITE_TIMEOUT, useDashboard } from './support/session.js';

/** docs/images/flag-page.png is rewritten only on request, so a test run leaves the docs as committed. */
const DOCS_IMAGES = fileURLToPath(new URL('../../../docs/images/', import.meta.url));

/** Evaluates through the runtime API, as an SDK would, in one environment. */
async function enabledFor(h: Harness, env: 'development' | 'production', flagKey: string, context: Record<string, string>): Promise<boolean | undefined> {
  const query: Record<string, string> = { publishableKey: h.envs[env].publishableKey };
  for (const [name, value] of Object.entries(context)) query[`context.${name}`] = value;
  const res = await h.request('GET', '/features/evaluated', { key: null, query });
  expect(res.status, res.text).toBe(200);
  return res.body.features[flagKey]?.isEnabled;
}

/**
 * The journey, as a new user would take it: create a flag, switch it in production, target a stored
 * user, read it all back through the API, and find it in the audit.
 */
describeWithChromium('dashboard journey in Chromium', () => {
  const session = useDashboard({}, async ({ h }) => {
    const segment = await h.request('POST', `/apps/${h.appId}/segments`, { body: { name: 'Pro users', filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } } });
    expect(segment.status, segment.text).toBe(200);
    const user = await h.request('PUT', `/apps/${h.appId}/envs/${h.envs.development.id}/users/u-42`, { body: { name: 'Grace Hopper', attributes: { plan: 'pro' } } });
    expect(user.status, user.text).toBe(200);
  });

  it('creates a flag from the flags list, the key derived from its name', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('flags', 'Flags');
    await s.check('flags-empty');
    await page.getByRole('button', { name: 'New flag' }).click();
    const dialog = page.getByRole('dialog', { name: 'New flag' });
    await dialog.getByLabel('Name').fill('Checkout v2');
    await expect.poll(() => dialog.getByLabel('Key').inputValue()).toMatch(/^checkout[-_]?v2$/i);
    const key = await dialog.getByLabel('Key').inputValue();
    await dialog.getByRole('button', { name: 'Create flag' }).click();
    await dialog.waitFor({ state: 'detached' });
    const flags = (await h.request('GET', `/apps/${h.appId}/flags`)).body.data;
    expect(flags.map((f: { key: string }) => f.key)).toEqual([key]);
    expect(key).toBe('checkout-v2');
    s.expectNoErrors();
  });

  it('writes rules with a segment and a nested group, and a config variant with a JSON payload, on the flag page', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('flags/checkout-v2', 'Checkout v2');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const rule = page.locator('.rule').first();
    await rule.getByLabel('Segment').selectOption({ label: 'Pro users' });
    // The rule's condition becomes a group (the condition goes inside it), then gets a nested group of its own.
    await rule.getByLabel('Kind of rule 1').selectOption('group');
    await rule.getByLabel('Attribute').first().fill('company.plan');
    await rule.getByLabel('Value for company.plan').fill('enterprise');
    await rule.getByRole('button', { name: 'Add nested group' }).click();
    await rule.getByLabel('Value for user.id').fill('u-42');

    await page.getByRole('button', { name: 'Add variant' }).click();
    const payload = page.getByLabel('Payload of variant 1 (JSON)');
    await payload.fill('{"color": "blue", "steps": [1, 2');
    await page.getByRole('button', { name: 'Save targeting in Development' }).click();
    // A payload that is not JSON is caught before saving.
    await page.getByRole('alert').filter({ hasText: /Fix the \d+ problems? marked above/ }).waitFor();
    await payload.fill('{"color": "blue", "steps": [1, 2]}');
    await page.getByRole('button', { name: 'Save targeting in Development' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved targeting of Checkout v2 in Development' }).waitFor();

    const segmentId = (await h.request('GET', `/apps/${h.appId}/segments`)).body.data.find((x: { name: string }) => x.name === 'Pro users').id;
    const stored = (await h.request('GET', `/apps/${h.appId}/flags/checkout-v2/targeting/${h.envs.development.id}`)).body;
    expect(stored.rules).toEqual([
      {
        segmentId,
        filter: {
          type: 'group',
          operator: 'and',
          filters: [
            { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] },
            { type: 'group', operator: 'and', filters: [{ type: 'context', field: 'user.id', operator: 'IS', values: ['u-42'] }] },
          ],
        },
      },
    ]);
    expect(stored.config.variants).toEqual([expect.objectContaining({ payload: { color: 'blue', steps: [1, 2] } })]);
    const context = { 'user.id': 'u-42', 'user.plan': 'pro', 'company.id': 'c1', 'company.plan': 'enterprise' };
    expect(await enabledFor(h, 'development', 'checkout-v2', context)).toBe(true);
    expect(await enabledFor(h, 'development', 'checkout-v2', { ...context, 'user.plan': 'free' })).toBe(false);

    await page.getByRole('heading', { level: 1, name: 'Checkout v2' }).focus();
    await s.check('flag-page');
    if (process.env['UPDATE_DOCS_SCREENSHOTS'] === '1') {
      // The top of the page, without the save confirmation over it: what a reader of the docs should see first.
      for (const dismiss of await page.getByRole('button', { name: 'Dismiss' }).all()) await dismiss.click();
      await page.setViewportSize({ width: 1280, height: 1100 });
      await page.evaluate(() => window.scrollTo(0, 0));
      mkdirSync(DOCS_IMAGES, { recursive: true });
      await page.screenshot({ path: artifactPath('flag-page-docs.png') });
      copyFileSync(artifactPath('flag-page-docs.png'), `${DOCS_IMAGES}flag-page.png`);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    s.expectNoErrors();
  });

  it('switches the flag on and off in production, each time after confirming', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('flags', 'Flags');
    await page.getByRole('button', { name: 'Turn on Checkout v2 in Production' }).click();
    const confirmOn = page.getByRole('dialog', { name: /Turn on for everyone in Production/ });
    await confirmOn.getByRole('button', { name: 'Turn on in Production' }).click();
    await page.getByRole('button', { name: 'Turn off Checkout v2 in Production' }).waitFor();
    expect(await enabledFor(h, 'production', 'checkout-v2', { 'user.id': 'anyone' })).toBe(true);
    await s.check('flags');

    await page.getByRole('button', { name: 'Turn off Checkout v2 in Production' }).click();
    const confirmOff = page.getByRole('dialog', { name: /Turn off in Production/ });
    await confirmOff.getByRole('button', { name: 'Turn off in Production' }).click();
    await page.getByRole('button', { name: 'Turn on Checkout v2 in Production' }).waitFor();
    const stored = await h.request('GET', `/apps/${h.appId}/flags/checkout-v2/targeting/${h.envs.production.id}`);
    expect(stored.body.rules).toEqual([]);
    expect(await enabledFor(h, 'production', 'checkout-v2', { 'user.id': 'anyone' })).toBe(false);
    s.expectNoErrors();
  });

  it('targets the stored user from the Users page; the API and the audit agree', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    expect(await enabledFor(h, 'development', 'checkout-v2', { 'user.id': 'u-42' })).toBe(false);
    await s.open('users/u-42', 'Users: Grace Hopper');
    await page.getByRole('button', { name: 'Target user u-42 with checkout-v2' }).click();
    await page.getByRole('button', { name: 'Stop targeting user u-42 in checkout-v2' }).waitFor();
    const read = await h.request('GET', `/apps/${h.appId}/envs/${h.envs.development.id}/users/u-42/flags`);
    expect(read.body.data).toEqual([expect.objectContaining({ key: 'checkout-v2', value: true, specificTargetValue: true })]);
    expect(await enabledFor(h, 'development', 'checkout-v2', { 'user.id': 'u-42' })).toBe(true);
    expect(await enabledFor(h, 'development', 'checkout-v2', { 'user.id': 'u-43' })).toBe(false);

    await s.open('audit', 'Audit');
    const entries = page.locator('.audit-entry');
    await entries.first().waitFor();
    const filters = page.getByRole('form', { name: 'Filter the audit' });
    await filters.getByLabel('Action').selectOption('flag.specificTarget.added');
    await expect.poll(() => entries.count()).toBe(1);
    expect(await entries.first().textContent()).toMatch(/flag checkout-v2\s*for user u-42 in Development/);
    await filters.getByLabel('Action').selectOption('flag.targeting.updated');
    await filters.getByLabel('Environment').selectOption({ label: 'Production' });
    await expect.poll(() => entries.count()).toBe(2);
    // Newest first: the switch-off, whose diff shows the rule it removed as a rule.
    expect(await entries.first().locator('.diff').textContent()).toMatch(/rule 1: everyone/);
    s.expectNoErrors();
  });
});
