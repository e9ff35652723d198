import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDashboardAssets } from '../../packages/core/src/dashboard/assets.js';
import { expressFactory } from '../http/support/adapters.js';
import { startHarness, type Harness } from '../http/support/harness.js';

/**
 * The dashboard's files (the build of @flagmount/dashboard) as the core serves them, without a browser: routes,
 * types, caching, that the scripts parse, and what happens when the package is not built.
 */
describe('dashboard assets', () => {
  let h: Harness;
  let html: string;
  let assets: string[];

  beforeAll(async () => {
    h = await startHarness(expressFactory, { options: { dashboard: true } });
    const page = await h.request('GET', '/ui/', { key: null });
    expect(page.status).toBe(200);
    html = page.text;
    assets = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+)"/g)].map((m) => m[1]!);
  });
  afterAll(() => h?.close());

  it('redirects <prefix>/ui to <prefix>/ui/ so relative URLs resolve under any prefix', async () => {
    const res = await fetch(`${h.baseUrl}/ui`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(new URL(res.headers.get('location')!, `${h.baseUrl}/ui`).href).toBe(`${h.baseUrl}/ui/`);
    const followed = await fetch(`${h.baseUrl}/ui`);
    expect(followed.url).toBe(`${h.baseUrl}/ui/`);
    expect(followed.status).toBe(200);
  });

  it('serves the page as HTML, revalidated, under a strict content security policy', async () => {
    const res = await fetch(`${h.baseUrl}/ui/`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*script-src 'self'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const again = await fetch(`${h.baseUrl}/ui/`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('serves content-hashed scripts and styles with their types, cached for a year, 304 on revalidation', async () => {
    expect(assets.map((a) => a.replace(/\.[\w-]{8}\./, '.HASH.')).sort()).toEqual(['index.HASH.css', 'index.HASH.js']);
    for (const name of assets) {
      const res = await fetch(`${h.baseUrl}/ui/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const etag = res.headers.get('etag')!;
      expect((await fetch(`${h.baseUrl}/ui/assets/${name}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    }
    expect((await fetch(`${h.baseUrl}/ui/assets/index.00000000.js`)).status).toBe(404);
  });

  it('ships a script that parses, with no external URL (works offline)', async () => {
    const js = await (await fetch(`${h.baseUrl}/ui/assets/${assets.find((a) => a.endsWith('.js'))}`)).text();
    await expect(transform(js, { loader: 'js', target: 'es2020' })).resolves.toBeDefined();
    const css = await (await fetch(`${h.baseUrl}/ui/assets/${assets.find((a) => a.endsWith('.css'))}`)).text();
    await expect(transform(css, { loader: 'css' })).resolves.toBeDefined();
    const urls = [...`${html}\n${js}\n${css}`.matchAll(/https?:\/\/[^\s'"`)]+/g)].map((m) => m[0]);
    // XML namespace names (SVG, MathML, XHTML) are identifiers, never fetched.
    expect(urls.filter((u) => !u.startsWith('http://www.w3.org/'))).toEqual([]);
  });

  it('has no inline script or style, which the CSP would block', () => {
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
  });

  it('answers a helpful 404 page, and logs why, when @flagmount/dashboard is not built', async () => {
    vi.doMock('@flagmount/dashboard', () => ({ distDir: '/nonexistent/flagmount-dashboard/' }));
    try {
      const warnings: string[] = [];
      const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => warnings.push(message) };
      const assets = await loadDashboardAssets(logger);
      expect(assets.available).toBe(false);
      expect(String(assets.html.body)).toContain('npm run build -w @flagmount/dashboard');
      expect(warnings).toEqual([expect.stringMatching(/not built/)]);
    } finally {
      vi.doUnmock('@flagmount/dashboard');
    }
  });

  it('is not served unless the dashboard option is on', async () => {
    const plain = await startHarness(expressFactory);
    try {
      expect((await plain.request('GET', '/ui/', { key: null })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
