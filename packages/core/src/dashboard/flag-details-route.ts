import { Type } from '@sinclair/typebox';
import { defineRoute, type RouteDefinition } from '../http/route.js';
import { loadApp, loadFlagByKey } from '../management/access.js';
import { loadFlagViewContext, toFlagHeader } from '../management/flags/flag-view.js';
import { FlagSchema } from '../schemas/flag.js';
import { FlagChecksParamsSchema } from './checks-route.js';

export const FlagDetailsResponseSchema = Type.Object(
  {
    flag: FlagSchema,
    /** Row 7 writes `secret` but no spec answer carries it; the flag page shows and edits it. */
    secret: Type.Boolean(),
    /** The app's stale window (`staleAfterDays`), so that the page can say when a flag becomes stale. */
    staleAfterDays: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false, $id: 'FlagDetails' },
);

/** Extension: one flag by key, as row 3 lists it, with the fields only the flag page needs. */
const getFlagDetails = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/flags/{flagKey}/details',
  operationId: 'getFlagDetails',
  summary: 'One flag by key (its header, whether it is secret, the stale window)',
  surface: 'management',
  tags: ['Flags'],
  auth: { kind: 'management', scope: 'read' },
  params: FlagChecksParamsSchema,
  response: FlagDetailsResponseSchema,
  async handle({ services, principal, params }) {
    const { storage } = services;
    const app = await loadApp(storage, principal, params.appId);
    const flag = await loadFlagByKey(storage, app, params.flagKey);
    const staleAfterDays = services.options.staleAfterDays;
    const ctx = await loadFlagViewContext(storage, app, { now: services.now(), staleAfterDays });
    const header = toFlagHeader(flag, ctx);
    return { flag: flag.parentFlagId ? { ...header, parentFlagId: flag.parentFlagId } : header, secret: flag.secret, staleAfterDays };
  },
});

export const flagDetailsRoutes: RouteDefinition[] = [getFlagDetails];
