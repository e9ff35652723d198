import { Type } from '@sinclair/typebox';
import { jsonResponse } from '../http/handler.js';
import { notFound } from '../http/http-error.js';
import { defineRoute, raw, type RouteDefinition } from '../http/route.js';
import { loadApp, managementKeyOf } from '../management/access.js';
import { documented } from '../openapi/annotations.js';
import { buildManifest, ManifestSchema } from './manifest.js';

/** This mount serves the manifest but takes no writes through it (flags are made with the management API). */
const CAPABILITIES = { 'x-manifest-capabilities': 'read' };

const appManifest = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/openfeature/v0/manifest',
  operationId: 'getAppOpenFeatureManifest',
  summary: "OpenFeature CLI: an app's flag manifest (`openfeature pull --flag-source-url <prefix>/apps/{appId}`)",
  surface: 'management',
  tags: ['OpenFeature'],
  auth: { kind: 'management', scope: 'read' },
  params: Type.Object({ appId: Type.String({ minLength: 1 }) }),
  response: ManifestSchema,
  async handle({ services, principal, params }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return raw(jsonResponse(200, await buildManifest(services.storage, app), CAPABILITIES));
  },
});

const firstAppManifest = defineRoute({
  method: 'GET',
  path: '/openfeature/v0/manifest',
  operationId: 'getOpenFeatureManifest',
  summary: "OpenFeature CLI: the first app's flag manifest (`openfeature pull --flag-source-url <prefix>`)",
  surface: 'management',
  tags: ['OpenFeature'],
  auth: { kind: 'management', scope: 'read' },
  response: ManifestSchema,
  async handle({ services, principal }) {
    // The CLI appends the path to the URL it is given and sends no query: the first app (by creation) is the default,
    // as everywhere else, and another app is reached through its own path.
    const [app] = await services.storage.apps.list({ orgId: managementKeyOf(principal).orgId });
    if (!app) throw notFound('App (the organisation has none yet)');
    return raw(jsonResponse(200, await buildManifest(services.storage, app), CAPABILITIES));
  },
});

const manifestHeaders = {
  headers: { 'X-Manifest-Capabilities': { description: 'What the key may do through the manifest API: read', schema: Type.String() } },
};

export const openFeatureManifestRoutes: RouteDefinition[] = [
  documented(firstAppManifest, { responses: { '200': { description: 'The manifest', schema: ManifestSchema, ...manifestHeaders } } }),
  documented(appManifest, { responses: { '200': { description: 'The manifest', schema: ManifestSchema, ...manifestHeaders } } }),
];
