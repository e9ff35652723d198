import { createHash } from 'node:crypto';
import { CORE_JS } from './ui/core.js';
import { ENVIRONMENTS_JS } from './ui/environments.js';
import { FLAG_PAGE_JS } from './ui/flag-page.js';
import { FLAGS_JS } from './ui/flags.js';
import { dashboardHtml } from './ui/html.js';
import { MAIN_JS } from './ui/main.js';
import { RULES_JS } from './ui/rules.js';
import { STYLES_CSS } from './ui/styles.js';

export interface Asset {
  body: string;
  contentType: string;
  etag: string;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function asset(body: string, contentType: string): Asset {
  return { body, contentType, etag: `"${hashOf(body)}"` };
}

/**
 * The dashboard's files, built once per process from the string modules. The script parts share one scope (an
 * IIFE), so they need no module loader; the file names carry a content hash so browsers may cache them forever.
 */
function build(): { html: Asset; files: Map<string, Asset> } {
  const js = `(function () {\n'use strict';\n${[CORE_JS, FLAGS_JS, FLAG_PAGE_JS, RULES_JS, ENVIRONMENTS_JS, MAIN_JS].join('\n')}\n})();\n`;
  const jsFile = `app.${hashOf(js)}.js`;
  const cssFile = `app.${hashOf(STYLES_CSS)}.css`;
  const files = new Map<string, Asset>([
    [jsFile, asset(js, 'text/javascript; charset=utf-8')],
    [cssFile, asset(STYLES_CSS, 'text/css; charset=utf-8')],
  ]);
  return { html: asset(dashboardHtml(cssFile, jsFile), 'text/html; charset=utf-8'), files };
}

let built: ReturnType<typeof build> | undefined;

/** Built on first use: an instance without the dashboard never pays for it. */
export function dashboardAssets(): ReturnType<typeof build> {
  built ??= build();
  return built;
}
