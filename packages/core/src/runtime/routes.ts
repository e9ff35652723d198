import type { RouteDefinition } from '../http/route.js';
import { featureRoutes } from './features/routes.js';
import { ingestRoutes } from './ingest/routes.js';
import { optInRoutes } from './opt-in/routes.js';
import { sseRoutes } from './sse/routes.js';

/** Every route of the runtime API (runtime-api.md) plus what Reflag's clients call beyond it (reflag-clients.md). */
export const runtimeRoutes: RouteDefinition[] = [...featureRoutes, ...ingestRoutes, ...sseRoutes, ...optInRoutes];
