import { expect, it } from 'vitest';
import { describeWithChromium } from '../support/chromium.js';
import { SUITE_TIMEOUT, useDashboard } from './support/session.js';

/** Stages, Environments, Keys and Members, driven as an admin would, each page scanned by axe. */
describeWithChromium('dashboard settings pages in Chromium', () => {
  const session = useDashboard();

  it('Stages: create, rename, recolour, reorder and delete', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('stages', 'Stages');
    await page.getByRole('button', { name: 'New stage' }).click();
    const dialog = page.getByRole('dialog', { name: 'New stage' });
    await dialog.getByLabel('Name').fill('Canary');
    await dialog.getByLabel('Colour').fill('not a colour');
    await dialog.getByRole('button', { name: 'Create stage' }).click();
    // The API's issue is shown under the field it is about.
    await expect.poll(() => dialog.getByLabel('Colour').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.locator('.field-error').count()).toBe(1);
    await dialog.getByLabel('Colour').fill('teal');
    await dialog.getByRole('button', { name: 'Create stage' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Canary', exact: true }).waitFor();
    await s.check('stages');

    await page.getByRole('button', { name: 'Edit Canary' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit stage Canary' });
    await edit.getByLabel('Name').fill('Public beta');
    await edit.getByLabel('Colour').fill('#336699');
    await edit.getByRole('button', { name: 'Save stage' }).click();
    await page.getByRole('cell', { name: 'Public beta', exact: true }).waitFor();

    const stagesNow = async () => (await h.request('GET', `/apps/${h.appId}/stages`)).body.data.sort((a: any, b: any) => a.order - b.order);
    const before = await stagesNow();
    const last = before.at(-1);
    expect(last).toMatchObject({ name: 'Public beta', color: '#336699' });
    await page.getByRole('button', { name: 'Move Public beta up' }).click();
    await expect.poll(async () => (await stagesNow()).at(-2)?.name).toBe('Public beta');

    await page.getByRole('button', { name: 'Delete Public beta' }).click();
    await page.getByRole('dialog', { name: /Delete stage Public beta/ }).getByRole('button', { name: 'Delete stage' }).click();
    await page.getByRole('cell', { name: 'Public beta', exact: true }).waitFor({ state: 'detached' });
    expect((await stagesNow()).map((x: any) => x.name)).not.toContain('Public beta');
    s.expectNoErrors();
  });

  it('Environments: create, rename, production flag, reorder; keys shown, copied and rotated after confirming', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('environments', 'Environments');
    await page.getByRole('button', { name: 'New environment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New environment' });
    await dialog.getByLabel('Name').fill('Staging');
    await dialog.getByRole('button', { name: 'Create environment' }).click();
    await page.getByRole('region', { name: 'SDK keys of Staging' }).waitFor();
    await s.check('environments');

    await page.getByRole('button', { name: 'Edit Staging' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit environment Staging' });
    await edit.getByLabel('Name').fill('Preview');
    await edit.getByLabel('Production environment').check();
    await edit.getByRole('button', { name: 'Save environment' }).click();
    await page.getByRole('region', { name: 'SDK keys of Preview' }).waitFor();
    await page.getByRole('button', { name: 'Move Preview up' }).click();
    const envs = async () => (await h.request('GET', `/apps/${h.appId}/environments`)).body.data;
    await expect.poll(async () => (await envs()).map((e: any) => e.name)).toEqual(['Development', 'Preview', 'Production']);
    expect((await envs()).find((e: any) => e.name === 'Preview').isProduction).toBe(true);

    const dev = page.getByRole('region', { name: 'SDK keys of Development' });
    expect(await dev.locator('[data-key=publishable]').textContent()).toBe(h.envs.development.publishableKey);
    expect(await dev.locator('[data-key=secret]').textContent()).not.toContain(h.envs.development.secretKey);
    await dev.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => dev.locator('[data-key=secret]').textContent()).toBe(h.envs.development.secretKey);
    await dev.getByRole('button', { name: 'Copy publishable key of Development' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied publishable key of Development' }).waitFor();

    // Rotation asks first; cancelling changes nothing.
    await dev.getByRole('button', { name: 'Rotate the secret key of Development' }).click();
    await page.getByRole('dialog', { name: /Rotate the secret key of Development/ }).getByRole('button', { name: 'Cancel' }).click();
    expect((await h.request('GET', `/apps/${h.appId}/environments/${h.envs.development.id}`)).body.sdkAccess.secretKey).toBe(h.envs.development.secretKey);
    await dev.getByRole('button', { name: 'Rotate the secret key of Development' }).click();
    await page.getByRole('dialog', { name: /Rotate the secret key of Development/ }).getByRole('button', { name: 'Rotate secret key' }).click();
    await expect.poll(() => dev.locator('[data-key=secret]').textContent()).not.toBe(h.envs.development.secretKey);
    const rotated = (await h.request('GET', `/apps/${h.appId}/environments/${h.envs.development.id}`)).body.sdkAccess;
    expect(rotated.publishableKey).toBe(h.envs.development.publishableKey);
    expect(await dev.locator('[data-key=secret]').textContent()).toBe(rotated.secretKey);
    s.expectNoErrors();
  });

  it('Keys: a new key is shown once with its scopes, works, and stops working when revoked', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('keys', 'Keys');
    await page.getByRole('button', { name: 'New management key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New management key' });
    await dialog.getByLabel('Name').fill('CI reader');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.locator('[data-key=management]').textContent();
    expect(secret).toBeTruthy();
    await page.getByRole('cell', { name: 'CI reader', exact: true }).waitFor();
    await s.check('keys');
    expect((await h.request('GET', '/apps', { key: secret })).status).toBe(200);
    // read only: a write is refused.
    expect((await h.request('POST', `/apps/${h.appId}/stages`, { key: secret, body: { name: 'x', color: 'red' } })).status).toBe(403);

    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('[data-key=management]').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Revoke CI reader' }).click();
    await page.getByRole('dialog', { name: /Revoke key CI reader/ }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText(/^revoked/).waitFor();
    expect((await h.request('GET', '/apps', { key: secret })).status).toBe(401);
    s.expectNoErrors();
  });

  it('Members: add one (field errors from the API shown), then edit', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('members', 'Members');
    await page.getByRole('button', { name: 'Add member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add member' });
    await dialog.getByLabel('User id').fill('u-ada');
    await dialog.getByLabel('Name').fill('Ada Lovelace');
    await dialog.getByLabel('Email').fill('ada@example.com');
    await dialog.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('cell', { name: 'Ada Lovelace', exact: true }).waitFor();
    await s.check('members');
    await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit member Ada Lovelace' });
    await edit.getByLabel('Name').fill('Ada King');
    await edit.getByRole('button', { name: 'Save member' }).click();
    await page.getByRole('cell', { name: 'Ada King', exact: true }).waitFor();
    expect((await h.request('GET', '/members/u-ada')).body).toMatchObject({ name: 'Ada King', email: 'ada@example.com' });
    s.expectNoErrors();
  });

  it('keyboard only: a stage is created and a dialog closed with Escape, focus returning to its opener', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    await s.open('stages', 'Stages');
    // The page's heading has focus on arrival; Tab moves on from there to the page's first action.
    const newStage = page.getByRole('button', { name: 'New stage' });
    for (let i = 0; i < 10 && !(await newStage.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await newStage.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New stage' });
    await expect.poll(() => dialog.getByLabel('Name').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => newStage.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    // Typed only once the dialog's field has focus: on a busy machine keys pressed before it opens go nowhere.
    await expect.poll(() => dialog.getByLabel('Name').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Keyboard stage');
    await page.keyboard.press('Enter');
    await page.getByRole('cell', { name: 'Keyboard stage', exact: true }).waitFor();
    expect((await h.request('GET', `/apps/${h.appId}/stages`)).body.data.map((x: { name: string }) => x.name)).toContain('Keyboard stage');
    s.expectNoErrors();
  });
});
