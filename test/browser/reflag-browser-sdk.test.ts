import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { createFlag, everyone, userIs } from '../ofrep/support/flags.js';
import { bundleForPage } from './support/bundle.js';
import { artifactPath, describeWithChromium, launchChromium, watchErrors } from './support/chromium.js';

/** The published browser SDK, bundled from node_modules at test time, exposed as `window.ReflagClient`. */
async function bundleBrowserSdk(): Promise<string> {
  return bundleForPage("import { ReflagClient } from '@reflag/browser-sdk';\nwindow.ReflagClient = ReflagClient;\n");
}

/** A second, unrelated site on another port: the page that embeds the SDK (cross-origin to the host app). */
async function startPageServer(sdk: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(sdk);
    } else if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><link rel="icon" href="data:,"><script src="/sdk.js"></script></head><body><h1>Shop</h1></body></html>');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

describeWithChromium('@reflag/browser-sdk in headless Chromium, from another origin', () => {
  let h: Harness;
  let browser: Browser;
  let site: { origin: string; server: Server };

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
    site?.server.closeAllConnections();
    await new Promise((resolve) => site?.server.close(resolve));
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
