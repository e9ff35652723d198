import type { Locator } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeWithChromium } from '../support/chromium.js';
import { SUITE_TIMEOUT, useDashboard } from './support/session.js';

/** A viewer signed in by the host sees every resource page and is offered no write. */
describeWithChromium('dashboard for a viewer in Chromium', () => {
  const session = useDashboard({ as: { type: 'person', id: 'u-vera', name: 'Vera Viewer', role: 'viewer' } }, async ({ h }) => {
    await h.request('POST', `/apps/${h.appId}/flags`, { body: { key: 'read-me', name: 'Read me' } });
    await h.request('PUT', `/apps/${h.appId}/envs/${h.envs.development.id}/users/u-1`, { body: { name: 'Grace' } });
    await h.request('POST', `/apps/${h.appId}/segments`, { body: { name: 'Pros', filter: { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] } } });
    await h.request('POST', '/keys', { body: { name: 'CI', scopes: ['read'] } });
    await h.request('PUT', '/members/u-ada', { body: { name: 'Ada', email: 'ada@example.com' } });
  });

  /** No button on the page (outside the header and navigation) that would write. */
  async function expectNoWrites(main: Locator): Promise<void> {
    const writes = main.getByRole('button', { name: /^(new|add|edit|delete|rotate|revoke|target|remove|set attribute|create|save)\b/i });
    expect(await writes.allTextContents()).toEqual([]);
  }

  it('Stages, Environments, Segments, Keys, Members, Users, Companies and Audit are read-only', { timeout: SUITE_TIMEOUT }, async () => {
    const s = session();
    const { page } = s;
    const main = page.getByRole('main');
    await page.getByText('Vera Viewer').waitFor();
    for (const [route, heading, ready] of [
      ['stages', 'Stages', page.getByRole('cell', { name: 'Beta', exact: true })],
      ['environments', 'Environments', page.locator('[data-key=publishable]').first()],
      ['segments', 'Segments', page.getByRole('cell', { name: 'Pros', exact: true })],
      ['keys', 'Keys', page.getByRole('cell', { name: 'CI', exact: true })],
      ['members', 'Members', page.getByRole('cell', { name: 'Ada', exact: true })],
      ['users/u-1', 'Users: Grace', page.getByRole('link', { name: 'read-me' })],
      ['companies', 'Companies', page.getByText(/No company is stored in Development yet/)],
      ['audit', 'Audit', page.locator('.audit-entry').first()],
    ] as const) {
      await s.open(route, heading);
      await ready.waitFor();
      await expectNoWrites(main);
      await s.check(`viewer-${route}`);
    }
    // A viewer can still read a segment's filter, in the builder with every control disabled.
    await s.open('segments', 'Segments');
    await page.getByRole('button', { name: 'View Pros' }).click();
    const attribute = page.getByRole('form', { name: 'Segment Pros' }).getByLabel('Attribute');
    expect(await attribute.inputValue()).toBe('user.plan');
    expect(await attribute.isEditable()).toBe(false);
    await expectNoWrites(main);
    s.expectNoErrors();
  });
});
