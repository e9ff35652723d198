import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';
import { createFlag, setTargeting, userIs } from '../ofrep/support/flags.js';
import { bundleForPage } from './support/bundle.js';
import { describeWithChromium, launchChromium, watchErrors } from './support/chromium.js';

/** @openfeature/web-sdk with the published OFREP web provider, bundled for the page (`window.OF`). */
async function bundle(): Promise<string> {
  return bundleForPage(
    "import { OpenFeature } from '@openfeature/web-sdk';\n" +
      "import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';\n" +
      'window.OF = { OpenFeature, OFREPWebProvider };\n',
  );
}

describeWithChromium('@openfeature/ofrep-web-provider in headless Chromium, from another origin', () => {
  let h: Harness;
  let browser: Browser;
  let server: Server;
  let origin: string;
  const requests: Array<{ status: number; ifNoneMatch: string | undefined }> = [];

  beforeAll(async () => {
    h = await startHarness(expressFactory);
    await createFlag(h, { key: 'checkout', rules: [userIs('u1')] });
    const js = await bundle();
    server = createServer((req, res) => {
      if (req.url === '/of.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><link rel="icon" href="data:,"><script src="/of.js"></script>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await h?.close();
  });

  it('evaluates in bulk with the publishable key, revalidates with If-None-Match (304), and sees changes', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    page.on('response', async (response) => {
      if (!response.url().endsWith('/ofrep/v1/evaluate/flags') || response.request().method() !== 'POST') return;
      requests.push({ status: response.status(), ifNoneMatch: await response.request().headerValue('if-none-match').then((v) => v ?? undefined) });
    });
    await page.goto(`${origin}/`);
    const first = await page.evaluate(
      async ({ baseUrl, key }) => {
        const { OpenFeature, OFREPWebProvider } = (window as any).OF;
        (window as any).provider = new OFREPWebProvider({ baseUrl, headers: [['Authorization', `Bearer ${key}`]], pollInterval: 200, changeDetection: 'polling' });
        await OpenFeature.setContext({ targetingKey: 'u2' });
        await OpenFeature.setProviderAndWait((window as any).provider);
        const client = OpenFeature.getClient();
        (window as any).client = client;
        return client.getBooleanDetails('checkout', true);
      },
      { baseUrl: h.baseUrl, key: h.envs.development.publishableKey },
    );
    expect(first).toMatchObject({ value: false, reason: 'DEFAULT' });

    // Polling revalidates: unchanged answers come back 304 with the tag the browser stored.
    await expect.poll(() => requests.some((r) => r.status === 304 && r.ifNoneMatch)).toBe(true);

    await setTargeting(h, 'checkout', [userIs('u1', 'u2')]);
    await expect
      .poll(() => page.evaluate(() => (window as any).client.getBooleanValue('checkout', false)), { timeout: 5000 })
      .toBe(true);
    await page.evaluate(() => (window as any).OF.OpenFeature.close());
    expect(errors).toEqual([]);
    await page.close();
  });
});
