import { expect, it } from 'vitest';
import { describeWithChromium } from '../support/chromium.js';
import { SUITE_TIMEOUT, useDashboard } from './support/session.js';

/** Segments: created and edited with the flag page's rule builder; deleting one in use says where it is used. */
describeWithChromium('dashboard segments in Chromium', () => {
  const session = useDashboard();

  it('creates, edits (nested group) and deletes a segment; one in use names the flag and environment', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page, h } = s;
    const segmentsNow = async () => (await h.request('GET', `/apps/${h.appId}/segments`)).body.data as Array<{ id: string; name: string; filter: unknown }>;
    await s.open('segments', 'Segments');
    await page.getByRole('button', { name: 'New segment' }).click();
    const editor = page.getByRole('form', { name: 'New segment' });
    await editor.getByLabel('Segment name').fill('Gold companies');
    await editor.getByLabel('Attribute').fill('company.tier');
    await editor.getByLabel('Value for company.tier').fill('gold');
    await s.check('segment-editor');
    await editor.getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('cell', { name: 'company.tier is gold' }).waitFor();
    const created = (await segmentsNow()).find((x) => x.name === 'Gold companies')!;
    expect(created.filter).toEqual({ type: 'group', operator: 'and', filters: [{ type: 'context', field: 'company.tier', operator: 'IS', values: ['gold'] }] });
    await s.check('segments');

    await page.getByRole('button', { name: 'Edit Gold companies' }).click();
    const edit = page.getByRole('form', { name: 'Edit segment Gold companies' });
    await edit.getByRole('button', { name: 'Add nested group' }).click();
    await edit.getByLabel('Value for user.id').fill('u-1');
    await edit.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('cell', { name: /company\.tier is gold AND \(user\.id is u-1\)/ }).waitFor();
    expect((await segmentsNow()).find((x) => x.id === created.id)!.filter).toEqual({
      type: 'group',
      operator: 'and',
      filters: [
        { type: 'context', field: 'company.tier', operator: 'IS', values: ['gold'] },
        { type: 'group', operator: 'and', filters: [{ type: 'context', field: 'user.id', operator: 'IS', values: ['u-1'] }] },
      ],
    });

    // In use by a rule: the refusal is shown in the dialog, naming the flag and the environment.
    await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'gold-perks', name: 'Gold perks' } });
    const targeting = `/apps/${h.appId}/flags/gold-perks/targeting/${h.envs.production.id}`;
    const used = await h.request('PUT', targeting, { body: { rules: [{ segmentId: created.id, filter: { type: 'constant', value: true } }] } });
    expect(used.status, used.text).toBe(200);
    await page.getByRole('button', { name: 'Delete Gold companies' }).click();
    const confirm = page.getByRole('dialog', { name: /Delete segment Gold companies/ });
    await confirm.getByRole('button', { name: 'Delete segment' }).click();
    await confirm.getByRole('alert').filter({ hasText: 'used by the rules of flag gold-perks in Production' }).waitFor();
    await s.check('segment-in-use');
    await confirm.getByRole('button', { name: 'Cancel' }).click();

    expect((await h.request('PUT', targeting, { body: { rules: [] } })).status).toBe(200);
    await page.getByRole('button', { name: 'Delete Gold companies' }).click();
    await confirm.getByRole('button', { name: 'Delete segment' }).click();
    await page.getByRole('cell', { name: 'Gold companies', exact: true }).waitFor({ state: 'detached' });
    expect((await segmentsNow()).map((x) => x.name)).not.toContain('Gold companies');
    s.expectNoErrors();
  });
});
