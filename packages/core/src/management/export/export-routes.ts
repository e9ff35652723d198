import { mutate } from '../../domain/mutation.js';
import { defineRoute, type Principal } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import { ExportDocumentSchema, ImportQuerySchema, ImportResponseSchema, type ExportDocument, type ImportResponse } from '../../schemas/export.js';
import type { Services } from '../../services.js';
import type { AppRecord } from '../../storage/records.js';
import { actorOf, loadApp, versionsAfter } from '../access.js';
import { checkDocument } from './check-document.js';
import { buildExport } from './export-document.js';
import { reconcile } from './reconcile.js';

/** Extension: the app's setup as one deterministic document (see `ExportDocumentSchema`). */
export const exportAppRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/export',
  operationId: 'exportApp',
  summary: "Export an app's setup",
  surface: 'management',
  tags: ['Import and export'],
  auth: { kind: 'management', scope: 'read' },
  params: AppParamsSchema,
  response: ExportDocumentSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return buildExport(services.storage, app);
  },
});

async function runImport(services: Services, principal: Principal, app: AppRecord | undefined, doc: ExportDocument, dryRun: boolean): Promise<ImportResponse> {
  checkDocument(doc);
  const actor = actorOf(principal);
  const at = services.now().toISOString();
  const answer = async (appId: string | null, changes: ImportResponse['changes'], bumped: Record<string, number>): Promise<ImportResponse> => {
    const summary = { create: 0, update: 0, unchanged: 0 };
    for (const change of changes) summary[change.action]++;
    const flagStateVersions = appId ? await versionsAfter(services.storage, appId, bumped) : {};
    return { dryRun, appId, changes, summary, flagStateVersions };
  };
  if (dryRun) {
    const { changes } = await reconcile({ repos: services.storage, orgId: actor.orgId, actor: actor.actor, app, doc, at });
    return answer(app?.id ?? null, changes, {});
  }
  const { result, versions } = await mutate(services, actor, async (tx) => {
    const outcome = await reconcile({ repos: tx, tx, orgId: actor.orgId, actor: actor.actor, app, doc, at });
    const summary = outcome.changes.filter((c) => c.action !== 'unchanged').length;
    if (summary) tx.recordAudit({ appId: outcome.app.id, envId: null, action: 'app.imported', targetType: 'app', targetId: outcome.app.id, changeDescription: `${summary} changes`, before: null, after: null });
    return outcome;
  });
  // Read-your-writes: the SDK keys of new environments work as soon as this answer arrives.
  await Promise.all(result.createdEnvIds.map((envId) => services.snapshots.reload(envId)));
  return answer(result.app.id, result.changes, versions);
}

/**
 * Extension: upserts an export document into the app by keys and names (see `reconcile`); `dryRun=true` answers
 * the same diff and changes nothing. One transaction: each environment's flagStateVersion advances once, exactly
 * when something it serves changed. An invalid document is refused whole, every problem under its field path.
 */
export const importAppRoute = defineRoute({
  method: 'POST',
  path: '/apps/{appId}/import',
  operationId: 'importApp',
  summary: "Import a setup into an app",
  surface: 'management',
  tags: ['Import and export'],
  auth: { kind: 'management', scope: 'admin' },
  params: AppParamsSchema,
  query: ImportQuerySchema,
  body: ExportDocumentSchema,
  response: ImportResponseSchema,
  async handle({ params, query, body, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return runImport(services, principal, app, body, query.dryRun ?? false);
  },
});

/**
 * Extension: imports into the app of the organisation named like the document's app, creating it (with its
 * environments and fresh SDK keys) when there is none: how a setup reaches an empty store.
 */
export const importRoute = defineRoute({
  method: 'POST',
  path: '/apps/import',
  operationId: 'importNewApp',
  summary: 'Import a setup into the app of its name',
  surface: 'management',
  tags: ['Import and export'],
  auth: { kind: 'management', scope: 'admin' },
  query: ImportQuerySchema,
  body: ExportDocumentSchema,
  response: ImportResponseSchema,
  async handle({ query, body, principal, services }) {
    const { orgId } = actorOf(principal);
    const app = (await services.storage.apps.list({ orgId })).find((a) => a.name === body.app.name);
    return runImport(services, principal, app, body, query.dryRun ?? false);
  },
});
