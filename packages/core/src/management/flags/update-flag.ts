import { mutate } from '../../domain/mutation.js';
import { addIssue, notPossible, type Issues } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { FlagMutationResponseSchema, FlagParamsSchema, UpdateFlagBodySchema, type FlagMutationResponse, type UpdateFlagBody } from '../../schemas/flag.js';
import type { Patch } from '../../storage/port.js';
import type { FlagRecord } from '../../storage/records.js';
import { actorOf, versionsAfter, loadApp, loadFlagById } from '../access.js';
import { flagsRequiring } from '../targeting/prerequisites.js';
import { checkOwnerRef, checkStageRef } from './flag-references.js';
import { loadFlagViewContext, toFlag } from './flag-view.js';

type FlagPatch = Patch<FlagRecord, 'id' | 'appId' | 'key' | 'createdAt'>;

/** The fields of the body that differ from the stored flag (`isArchived` is stored as `archived`). */
function changedFields(flag: FlagRecord, body: UpdateFlagBody): FlagPatch {
  const patch: FlagPatch = {};
  if (body.name !== undefined && body.name !== flag.name) patch.name = body.name;
  if (body.description !== undefined && body.description !== flag.description) patch.description = body.description;
  if (body.ownerUserId !== undefined && body.ownerUserId !== flag.ownerUserId) patch.ownerUserId = body.ownerUserId;
  if (body.permanent !== undefined && body.permanent !== flag.permanent) patch.permanent = body.permanent;
  if (body.secret !== undefined && body.secret !== flag.secret) patch.secret = body.secret;
  if (body.isArchived !== undefined && body.isArchived !== flag.archived) patch.archived = body.isArchived;
  if (body.stageId !== undefined && body.stageId !== flag.stageId) patch.stageId = body.stageId;
  return patch;
}

/**
 * Row 7. Any effective change bumps every environment once (archiving removes the flag from `/features`
 * everywhere; the other fields are served or change what SDKs may see). A body that changes nothing answers 200
 * with the current versions and writes nothing, not even an audit entry.
 */
export const updateFlagRoute = defineRoute({
  method: 'PATCH',
  path: '/apps/{appId}/flags/{flagId}',
  operationId: 'updateFlag',
  summary: 'Update a flag',
  surface: 'management',
  tags: ['Flags'],
  auth: { kind: 'management', scope: 'write:flags' },
  params: FlagParamsSchema,
  body: UpdateFlagBodySchema,
  response: FlagMutationResponseSchema,
  async handle({ params, body, principal, services }): Promise<FlagMutationResponse> {
    const app = await loadApp(services.storage, principal, params.appId);
    const { result: flag, versions } = await mutate(services, actorOf(principal), async (tx) => {
      const before = await loadFlagById(tx, app, params.flagId);
      const patch = changedFields(before, body);
      const issues: Issues = {};
      if (patch.stageId) await checkStageRef(tx, app, patch.stageId, issues);
      if (patch.ownerUserId != null) await checkOwnerRef(tx, app, patch.ownerUserId, issues);
      if (patch.archived === true) {
        const dependents = await flagsRequiring(tx, app, before.key);
        if (dependents.length) addIssue(issues, 'isArchived', `Flags ${dependents.join(', ')} require this flag: remove it from their prerequisites first`);
      }
      if (Object.keys(issues).length) throw notPossible('The flag cannot be updated', issues);
      if (!Object.keys(patch).length) return before;

      patch.updatedAt = services.now().toISOString();
      await tx.flags.update(before.id, patch);
      const after: FlagRecord = { ...before, ...patch };
      const envs = await tx.environments.listByApp(app.id);
      tx.changesFlagState(...envs.map((e) => e.id));
      const action = patch.archived === true ? 'flag.archived' : patch.archived === false ? 'flag.unarchived' : 'flag.updated';
      tx.recordAudit({ appId: app.id, envId: null, action, targetType: 'flag', targetId: before.id, changeDescription: null, before, after });
      return after;
    });
    const ctx = await loadFlagViewContext(services.storage, app, { now: services.now(), staleAfterDays: services.options.staleAfterDays });
    return { flag: toFlag(flag, ctx), flagStateVersions: await versionsAfter(services.storage, app.id, versions) };
  },
});
