import { mutate } from '../../domain/mutation.js';
import { defineRoute } from '../../http/route.js';
import { AppSchema, UpdateAppBodySchema } from '../../schemas/app.js';
import { AppParamsSchema } from '../../schemas/common.js';
import type { Patch } from '../../storage/port.js';
import type { AppRecord } from '../../storage/records.js';
import { actorOf, loadApp } from '../access.js';
import { fullApp } from '../views.js';

/**
 * Extension: rename an app, change its flagKeyFormat (checked on flags created afterwards only) or demo flag.
 * Nothing here is served by `/features`, so no flagStateVersion moves.
 */
export const updateAppRoute = defineRoute({
  method: 'PATCH',
  path: '/apps/{appId}',
  operationId: 'updateApp',
  summary: 'Update an app',
  surface: 'management',
  tags: ['Apps'],
  auth: { kind: 'management', scope: 'admin' },
  params: AppParamsSchema,
  body: UpdateAppBodySchema,
  response: AppSchema,
  async handle({ params, body, principal, services }) {
    const { result: app } = await mutate(services, actorOf(principal), async (tx) => {
      const before = await loadApp(tx, principal, params.appId);
      const patch: Patch<AppRecord, 'id' | 'orgId' | 'createdAt'> = {};
      if (body.name !== undefined && body.name !== before.name) patch.name = body.name;
      if (body.flagKeyFormat !== undefined && body.flagKeyFormat !== before.flagKeyFormat) patch.flagKeyFormat = body.flagKeyFormat;
      if (body.demo !== undefined && body.demo !== before.demo) patch.demo = body.demo;
      if (!Object.keys(patch).length) return before;
      await tx.apps.update(before.id, patch);
      const after = { ...before, ...patch };
      tx.recordAudit({ appId: before.id, envId: null, action: 'app.updated', targetType: 'app', targetId: before.id, changeDescription: null, before, after });
      return after;
    });
    return fullApp(services.storage, app);
  },
});
