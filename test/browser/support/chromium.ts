import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { describe } from 'vitest';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, sandbox-free (containers), and quiet: no update, sync or QUIC traffic leaving the test machine. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

const available = existsSync(CHROMIUM_PATH);
const inCi = process.env['CI'] === 'true';
if (!available && !inCi) {
  // The one visible line: outside CI a machine without Chromium skips the browser suites instead of failing them.
  process.stderr.write(`browser tests skipped: ${CHROMIUM_PATH} not found (set CI=true to make this a failure)\n`);
}

/**
 * `describe` for suites that need Chromium: skipped outside CI when it is missing; in CI they run and fail at
 * launch, so a broken image cannot pass silently.
 */
export const describeWithChromium: typeof describe = (available || inCi ? describe : describe.skip) as typeof describe;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
}

/** test-results/ at the repository root (git-ignored): screenshots kept as artifacts of a run. */
export function artifactPath(name: string): string {
  const dir = fileURLToPath(new URL('../../../test-results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  return dir + name;
}

/** Collects console errors and failed requests of a page, for "no errors" assertions. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    // A stream the page closes on navigation or at the end of the test is not an error of the page.
    if (!/ERR_ABORTED/.test(failure)) errors.push(`request: ${request.method()} ${request.url()} ${failure}`);
  });
  return errors;
}
