import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { createFlag, everyone, userIs } from '../ofrep/support/flags.js';
import { bundleBrowserSdk, startPageServer, type PageServer } from './support/page-server.js';
import { artifactPath, describeWithChromium, launchChromium, watchErrors } from './support/chromium.js';

describeWithChromium('@reflag/browser-sdk in headless Chromium, from another origin', () => {
  let h: Harness;
  let browser: Browser;
  let site: PageServer;

  beforeAll(async () => {
    h = await startHarness(expressFactory);
    await createFlag(h, { key: 'huddles', rules: [userIs('user-1')] });
    await createFlag(h, { key: 'everyone-flag', rules: [everyone] });
    await createFlag(h, { key: 'nobody-flag' });
    site = await startPageServer(await bundleBrowserSdk());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await h?.close();
  });

  it('initializes, sees the targeted flag on, tracks, with no CORS or console errors', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await page.goto(`${site.origin}/`);
    // Different scheme/host/port: every API call is cross-origin (localhost vs 127.0.0.1, other port).
    expect(new URL(page.url()).origin).not.toBe(new URL(h.baseUrl).origin);

    const result = await page.evaluate(
      async ({ apiBaseUrl, publishableKey }) => {
        const ReflagClient = (window as unknown as { ReflagClient: new (options: object) => any }).ReflagClient;
        const client = new ReflagClient({ publishableKey, apiBaseUrl, user: { id: 'user-1', name: 'Ada' }, company: { id: 'company-1', plan: 'pro' } });
        await client.initialize();
        const flags = {
          huddles: client.getFlag('huddles').isEnabled,
          everyone: client.getFlag('everyone-flag').isEnabled,
          nobody: client.getFlag('nobody-flag').isEnabled,
        };
        const tracked = await client.track('huddles', { source: 'browser-test' });
        await client.stop();
        return { flags, trackStatus: tracked?.status ?? null };
      },
      { apiBaseUrl: h.baseUrl, publishableKey: h.envs.development.publishableKey },
    );

    expect(result.flags).toEqual({ huddles: true, everyone: true, nobody: false });
    expect(result.trackStatus).toBe(200);
    await expect
      .poll(async () => (await h.storage.events.listTracks(h.envs.development.id, 100)).map((t) => `${t.userId}:${t.event}`))
      .toContain('user-1:huddles');
    await page.screenshot({ path: artifactPath('reflag-browser-sdk.png') });
    expect(errors.filter((e) => /cors|access-control/i.test(e))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
