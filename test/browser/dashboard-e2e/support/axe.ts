import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts that fail the suite (issue 37: 0 serious or critical violations on every page). */
const FAILING = new Set(['serious', 'critical']);

/** One violation per paragraph: impact, rule, what to do, and every offending node with axe's summary. */
export function formatViolations(violations: Result[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .map((n) => `    at ${n.target.join(' ')}\n      ${n.html.slice(0, 200)}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`)
        .join('\n');
      return `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`;
    })
    .join('\n\n');
}

/**
 * Runs axe-core on the page as it is now. The source is evaluated through the DevTools protocol, which the page's
 * CSP (script-src 'self') does not govern, so the dashboard is scanned under its real headers.
 */
export async function scanAccessibility(page: Page): Promise<AxeResults> {
  const injected = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!injected) await page.evaluate(AXE_SOURCE);
  return page.evaluate(() =>
    (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  );
}

/** Fails with a readable list when axe finds a serious or critical violation on the page. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const results = await scanAccessibility(page);
  const failing = results.violations.filter((v) => v.impact && FAILING.has(v.impact));
  if (failing.length) {
    throw new Error(`axe-core: ${failing.length} serious/critical violation(s) on ${label}:\n\n${formatViolations(failing)}`);
  }
}
