import { mutate } from '../../domain/mutation.js';
import { newId } from '../../domain/ids.js';
import { addIssue, notPossible, type Issues } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { CreateFlagBodySchema, FlagMutationResponseSchema, type FlagMutationResponse } from '../../schemas/flag.js';
import { newFlagRecord } from '../../domain/new-flag-record.js';
import { actorOf, versionsAfter, loadApp } from '../access.js';
import { checkOwnerRef, checkStageRef } from './flag-references.js';
import { flagKeyFormatProblem } from './flag-key-format.js';
import { loadFlagViewContext, toFlag } from './flag-view.js';

/**
 * Row 6. A new flag is served by `/features` in every environment (with no rules, so off), so creating one bumps
 * every environment's flagStateVersion, once, in the same transaction.
 */
export const createFlagRoute = defineRoute({
  method: 'POST',
  path: '/apps/{appId}/flags',
  operationId: 'createFlag',
  summary: 'Create a flag',
  surface: 'management',
  tags: ['Flags'],
  auth: { kind: 'management', scope: 'write:flags' },
  params: AppParamsSchema,
  body: CreateFlagBodySchema,
  response: FlagMutationResponseSchema,
  async handle({ params, body, principal, services }): Promise<FlagMutationResponse> {
    const app = await loadApp(services.storage, principal, params.appId);
    const { result: flag, versions } = await mutate(services, actorOf(principal), async (tx) => {
      const issues: Issues = {};
      const formatProblem = flagKeyFormatProblem(body.key, app.flagKeyFormat);
      if (formatProblem) addIssue(issues, 'key', formatProblem);
      if (await tx.flags.getByKey(app.id, body.key)) addIssue(issues, 'key', `A flag with key "${body.key}" already exists in this app`);
      if (body.stageId !== undefined) await checkStageRef(tx, app, body.stageId, issues);
      if (body.ownerUserId != null) await checkOwnerRef(tx, app, body.ownerUserId, issues);
      if (Object.keys(issues).length) throw notPossible('The flag cannot be created', issues);

      const at = services.now().toISOString();
      const row = newFlagRecord({
        id: newId('fl'),
        appId: app.id,
        key: body.key,
        name: body.name,
        description: body.description ?? null,
        stageId: body.stageId ?? null,
        ownerUserId: body.ownerUserId ?? null,
        permanent: body.permanent ?? false,
        secret: body.secret ?? false,
        createdAt: at,
      });
      await tx.flags.insert(row);
      const envs = await tx.environments.listByApp(app.id);
      tx.changesFlagState(...envs.map((e) => e.id));
      tx.recordAudit({ appId: app.id, envId: null, action: 'flag.created', targetType: 'flag', targetId: row.id, changeDescription: null, before: null, after: row });
      return row;
    });
    const ctx = await loadFlagViewContext(services.storage, app, { now: services.now(), staleAfterDays: services.options.staleAfterDays });
    return { flag: toFlag(flag, ctx), flagStateVersions: await versionsAfter(services.storage, app.id, versions) };
  },
});
