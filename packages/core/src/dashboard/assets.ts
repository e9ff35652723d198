import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Logger } from '../logger.js';

export interface Asset {
  body: string | Buffer;
  contentType: string;
  etag: string;
}

export interface DashboardAssets {
  /** `index.html`; a 404 page saying how to build the dashboard when it is missing. */
  html: Asset;
  /** The files under `assets/`, by name (content-hashed by the build). */
  files: Map<string, Asset>;
  /** False when the page is the "not built" notice. */
  available: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

function asset(body: string | Buffer, contentType: string): Asset {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` };
}

const PACKAGE = '@flagmount/dashboard';

function notice(reason: string): DashboardAssets {
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flagmount dashboard not available</title></head>',
    '<body><main><h1>The Flagmount dashboard is not available</h1>',
    `<p>${reason}</p>`,
    `<p>Install <code>${PACKAGE}</code> beside <code>@flagmount/core</code>; in the Flagmount repository, run `,
    '<code>npm run build -w @flagmount/dashboard</code> and restart the app.</p>',
    '<p>The management API under this mount works without it.</p></main></body></html>',
  ].join('');
  return { html: asset(html, 'text/html; charset=utf-8'), files: new Map(), available: false };
}

/**
 * Reads the built dashboard from the `@flagmount/dashboard` package, resolved when the instance starts (it is an
 * optional peer: the core never imports UI code, only reads the files the package's build put in its `dist`). The
 * files are small and content-hashed, so they are held in memory for the life of the instance.
 */
export async function loadDashboardAssets(logger: Logger): Promise<DashboardAssets> {
  let distDir: string;
  try {
    // A variable specifier: bundlers and type checks leave the optional package alone.
    const specifier: string = PACKAGE;
    distDir = ((await import(specifier)) as { distDir: string }).distDir;
  } catch (error) {
    logger.warn(`flagmount: dashboard: ${PACKAGE} is not installed, so <prefix>/ui answers 404`, { error });
    return notice(`The package <code>${PACKAGE}</code> is not installed.`);
  }
  let html: string;
  let names: string[];
  try {
    html = await readFile(join(distDir, 'index.html'), 'utf8');
    names = await readdir(join(distDir, 'assets'));
  } catch {
    logger.warn(`flagmount: dashboard: ${PACKAGE} is not built (no ${join(distDir, 'index.html')}), so <prefix>/ui answers 404`);
    return notice(`The package <code>${PACKAGE}</code> is installed but not built.`);
  }
  const files = new Map<string, Asset>();
  for (const name of names) {
    const type = CONTENT_TYPES[extname(name)];
    if (!type) continue;
    const body = await readFile(join(distDir, 'assets', name));
    files.set(name, asset(type.startsWith('text/') ? body.toString('utf8') : body, type));
  }
  logger.debug('flagmount: dashboard loaded', { distDir, files: files.size });
  return { html: asset(html, 'text/html; charset=utf-8'), files, available: true };
}
