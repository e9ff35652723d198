import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Harness } from '../../../http/support/harness.js';
import { artifactPath, launchChromium, watchErrors } from '../../support/chromium.js';
import { expectAccessible } from './axe.js';
import { startDashboardApp } from './app.js';

/**
 * On a loaded 2-core machine a first Vite-built page and an SQLite write can take seconds: every wait below is on the
 * UI's own state, bounded by these generous limits, never a sleep.
 */
export const UI_TIMEOUT = 30_000;
export const SUITE_TIMEOUT = 180_000;

export interface DashboardSession {
  h: Harness;
  browser: Browser;
  page: Page;
  /** Console errors, page errors and failed requests seen so far (see `expectNoErrors`). */
  errors: string[];
  /** Opens `#/<route>` of the dashboard (already signed in) and waits for the page's heading. */
  open(route: string, heading: string | RegExp): Promise<void>;
  /** axe-core on the current page, plus the console check, plus a screenshot kept in test-results/. */
  check(label: string): Promise<void>;
  expectNoErrors(): void;
  close(): Promise<void>;
}

/** Signs in with a management key through the dashboard's own form (shown while `GET /me` answers 401/404). */
export async function signInWithKey(page: Page, key: string): Promise<void> {
  const input = page.getByLabel(/management (api )?key/i);
  await input.waitFor();
  await input.fill(key);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.getByRole('navigation').first().waitFor();
}

/**
 * Console errors, page errors and failed requests, except the browser's own "Failed to load resource … 4xx" line:
 * every API answer of 4xx is one the dashboard handles and shows (the 404 of `GET /me` without host sign-in, a
 * 400 under the field it is about), and the tests assert on what is shown. A 5xx anywhere, or a 4xx for one of the
 * dashboard's own files, is still an error.
 */
function watchDashboardErrors(page: Page): string[] {
  const errors = watchErrors(page);
  const all = errors.push.bind(errors);
  errors.push = (...items: string[]) => all(...items.filter((e) => !/^console: Failed to load resource: the server responded with a status of 4\d\d/.test(e)));
  page.on('response', (res) => {
    const asset = new URL(res.url()).pathname.includes('/ui/');
    if (res.status() >= 500 || (asset && res.status() >= 400)) errors.push(`response: ${res.status()} ${res.request().method()} ${res.url()}`);
  });
  return errors;
}

/** Who `GET <prefix>/me` says is signed in, when a test plays the host's sign-in (see `openDashboard`). */
export interface HostPerson {
  type: 'person';
  id: string;
  name: string;
  role: 'admin' | 'editor' | 'viewer';
}

/**
 * Plays a host app whose session cookie signs `person` in: `GET /me` answers the person, and every API request
 * carries the management key as the host's session would carry its cookie, so the server answers as usual while
 * the dashboard shows what that person's role allows.
 */
async function playHostSignIn(page: Page, h: Harness, person: HostPerson): Promise<void> {
  await page.route(`${h.baseUrl}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.includes('/ui/') || url.pathname.endsWith('/ui')) return route.continue();
    if (url.pathname === new URL(`${h.baseUrl}/me`).pathname) {
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ actor: person }) });
    }
    return route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${h.managementKey}` } });
  });
}

export async function openDashboard(options: { as?: HostPerson } = {}): Promise<DashboardSession> {
  const h = await startDashboardApp();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(UI_TIMEOUT);
    page.setDefaultNavigationTimeout(UI_TIMEOUT);
    const errors = watchDashboardErrors(page);
    if (options.as) await playHostSignIn(page, h, options.as);
    await page.goto(`${h.baseUrl}/ui/`);
    if (options.as) await page.getByRole('navigation').first().waitFor();
    else await signInWithKey(page, h.managementKey);
    const session: DashboardSession = {
      h,
      browser,
      page,
      errors,
      async open(route, heading) {
        await page.goto(`${h.baseUrl}/ui/#/${route.replace(/^\/+/, '')}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      },
      async check(label) {
        await page.screenshot({ path: artifactPath(`dashboard-${label.replace(/[^a-z0-9]+/gi, '-')}.png`) });
        await expectAccessible(page, label);
        session.expectNoErrors();
      },
      expectNoErrors() {
        if (errors.length) throw new Error(`the page logged errors:\n${errors.join('\n')}`);
      },
      async close() {
        try {
          await browser?.close();
        } finally {
          await h.close();
        }
      },
    };
    return session;
  } catch (error) {
    await browser?.close();
    await h.close();
    throw error;
  }
}

/**
 * One dashboard (app, browser, signed-in page) for the tests of a `describe`: opened before them, `setup` run
 * with it (data the tests expect), closed after them. The getter gives it to each test.
 */
export function useDashboard(options: { as?: HostPerson } = {}, setup?: (s: DashboardSession) => Promise<void>): () => DashboardSession {
  let session: DashboardSession | undefined;
  beforeAll(async () => {
    session = await openDashboard(options);
    await setup?.(session);
  }, SUITE_TIMEOUT);
  afterAll(async () => {
    await session?.close();
  });
  return () => {
    if (!session) throw new Error('the dashboard did not open');
    return session;
  };
}
