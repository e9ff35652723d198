import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { createFlag, everyone, setTargeting, userIs } from '../ofrep/support/flags.js';
import { bundleBrowserSdk, startPageServer, type PageServer } from './support/page-server.js';
import { describeWithChromium, launchChromium, watchErrors } from './support/chromium.js';

/**
 * A server-rendered page: the host renders the in-process client's `getFlagsForBootstrap(context)` into the HTML,
 * and the published browser SDK starts from it. (The page is served by a second server so that the SDK's own
 * requests to the mount are easy to tell from the page's.)
 */
const bootstrapScript = (bootstrap: unknown) => `<script>window.BOOT = ${JSON.stringify(bootstrap).replace(/</g, '\\u003c')};</script>`;

describeWithChromium('@reflag/browser-sdk started from getFlagsForBootstrap, in headless Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let site: PageServer;

  beforeAll(async () => {
    h = await startHarness(expressFactory);
    await createFlag(h, { key: 'huddles', rules: [userIs('user-1')] });
    await createFlag(h, { key: 'later' });
    site = await startPageServer(await bundleBrowserSdk(), () => bootstrapScript(h.instance.client.getFlagsForBootstrap({ user: { id: 'user-1' } })));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await h?.close();
  });

  for (const option of ['bootstrappedState', 'bootstrappedFlags'] as const) {
    it(`${option}: no /features/evaluated request at start${option === 'bootstrappedState' ? '; a change pushed over SSE still applies' : ''}`, async () => {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      const evaluated: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/features/evaluated')) evaluated.push(request.url());
      });
      await page.goto(`${site.origin}/`);
      const live = option === 'bootstrappedState';
      const started = await page.evaluate(
        async ({ apiBaseUrl, publishableKey, option, live }) => {
          const w = window as unknown as { ReflagClient: new (o: object) => any; BOOT: { flags: object; flagStateVersion: number }; client: any };
          const boot = option === 'bootstrappedState' ? { bootstrappedState: w.BOOT } : { bootstrappedFlags: w.BOOT.flags };
          w.client = new w.ReflagClient({ publishableKey, apiBaseUrl, user: { id: 'user-1' }, enableLiveFlagUpdates: live, ...boot });
          await w.client.initialize();
          return { huddles: w.client.getFlag('huddles').isEnabled, later: w.client.getFlag('later').isEnabled };
        },
        { apiBaseUrl: h.baseUrl, publishableKey: h.envs.development.publishableKey, option, live },
      );
      // What the server says now (the first case turns `later` on for everyone).
      expect(started).toEqual({ huddles: true, later: h.instance.client.isEnabled('later', { user: { id: 'user-1' }, enableTracking: false }) });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(evaluated).toEqual([]);
      if (live) {
        await expect.poll(() => h.instance.services.streams.count(h.envs.development.id), { timeout: 5000 }).toBeGreaterThan(0);
        await setTargeting(h, 'later', [everyone]);
        await expect.poll(() => page.evaluate(() => (window as unknown as { client: any }).client.getFlag('later').isEnabled), { timeout: 5000 }).toBe(true);
      }
      await page.evaluate(() => (window as unknown as { client: any }).client.stop());
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
