import { Type } from '@sinclair/typebox';
import { notFound } from '../http/http-error.js';
import { defineRoute, raw, type RouteDefinition } from '../http/route.js';
import type { CoreRequest, CoreResponse } from '../http/types.js';
import { documented } from '../openapi/annotations.js';
import type { Asset, DashboardAssets } from './assets.js';
import { flagChecksRoutes } from './checks-route.js';
import { flagFeedbackRoutes } from './feedback-route.js';
import { flagDetailsRoutes } from './flag-details-route.js';
import { flagStatusesRoutes } from './flag-statuses-route.js';
import { specificTargetsRoutes } from './specific-targets-route.js';

/**
 * The page may only talk to its own origin and load its own files: the management key lives in this page, so no
 * third-party script, frame or form target gets near it.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

function send(request: CoreRequest, asset: Asset, cacheControl: string): CoreResponse {
  const headers = { ...SECURITY_HEADERS, etag: asset.etag, 'cache-control': cacheControl };
  const tags = request.headers['if-none-match']?.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (tags?.includes(asset.etag) || tags?.includes('*')) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'content-type': asset.contentType }, body: asset.body };
}

const page = (assets: DashboardAssets) => defineRoute({
  method: 'GET',
  path: '/ui',
  operationId: 'getDashboard',
  summary: 'The dashboard (HTML): signs in with the host session or a management API key and calls the management API',
  surface: 'management',
  tags: ['Dashboard'],
  auth: { kind: 'public' },
  produces: 'text/html',
  async handle({ request }) {
    // Relative asset and API URLs need the trailing slash; `Location: ui/` resolves against `<prefix>/ui`.
    if (!request.path.endsWith('/')) {
      const q = request.query.length ? `?${new URLSearchParams(request.query.map(([k, v]) => [k, v])).toString()}` : '';
      // The query is carried over only when short: re-encoded, a long one becomes a Location header larger than
      // clients and proxies accept (Node's fetch refuses 16 KiB, nginx's default buffer is 4-8 KiB).
      return raw({ status: 308, headers: { location: `ui/${q.length <= 2048 ? q : ''}`, 'cache-control': 'no-cache' } });
    }
    // Revalidated on every load, so a new release's asset names are picked up at once.
    if (!assets.available) {
      return raw({ status: 404, headers: { ...SECURITY_HEADERS, 'content-type': assets.html.contentType, 'cache-control': 'no-cache' }, body: assets.html.body });
    }
    return raw(send(request, assets.html, 'no-cache'));
  },
});

const file = (assets: DashboardAssets) => defineRoute({
  method: 'GET',
  path: '/ui/assets/{file}',
  operationId: 'getDashboardAsset',
  summary: 'A dashboard script or stylesheet (content-hashed name, cached for a year)',
  surface: 'management',
  tags: ['Dashboard'],
  auth: { kind: 'public' },
  params: Type.Object({ file: Type.String({ minLength: 1, maxLength: 100 }) }),
  produces: 'text/plain',
  async handle({ request, params }) {
    const asset = assets.files.get(params.file);
    // The spec's error body, like every other 4xx of the mount.
    if (!asset) throw notFound(`Asset ${params.file}`);
    return raw(send(request, asset, 'public, max-age=31536000, immutable'));
  },
});

/** The UI itself (the files of `@flagmount/dashboard`): served only when `createFlagmount({ dashboard: true })`. */
export const dashboardRoutes = (assets: DashboardAssets): RouteDefinition[] => [
  documented(page(assets), {
    responses: {
      '304': { description: 'Not modified (If-None-Match)' },
      '308': { description: 'Redirect from `<prefix>/ui` to `<prefix>/ui/`' },
    },
  }),
  documented(file(assets), {
    responses: { '304': { description: 'Not modified (If-None-Match)' }, '404': { description: 'No such asset' } },
  }),
];

/** Read-only management routes the UI needs and the spec lacks; part of the management API (in OpenAPI). */
export const dashboardApiRoutes: RouteDefinition[] = [
  ...flagChecksRoutes,
  ...specificTargetsRoutes,
  ...flagStatusesRoutes,
  ...flagFeedbackRoutes,
  ...flagDetailsRoutes,
];
