import { invalidRequest } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { AUDIT_LIMIT_DEFAULT, ListAuditQuerySchema, ListAuditResponseSchema, type AuditEntry, type ListAuditQuery } from '../../schemas/audit.js';
import { AppParamsSchema } from '../../schemas/common.js';
import type { Services } from '../../services.js';
import type { AuditListFilter } from '../../storage/port.js';
import type { AuditRecord } from '../../storage/records.js';
import { personActor } from '../../host/member-sync.js';
import { loadApp, orgIdOf } from '../access.js';

const PERSON_PREFIX = personActor('');

/** The cursor is opaque to callers: base64url of the last entry's (createdAt, id), the store's own page key. */
export const encodeCursor = (row: Pick<AuditRecord, 'createdAt' | 'id'>): string =>
  Buffer.from(JSON.stringify([row.createdAt, row.id])).toString('base64url');

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { createdAt: value[0] as string, id: value[1] as string };
    }
  } catch {
    // fall through
  }
  throw invalidRequest('Invalid query parameters', { before: ['is not a cursor returned by this endpoint (nextCursor)'] });
}

const toAuditEntry = (row: AuditRecord, names: ReadonlyMap<string, string>): AuditEntry => ({
  id: row.id,
  appId: row.appId,
  envId: row.envId,
  actor: row.actor,
  actorName: names.get(row.actor) ?? null,
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  changeDescription: row.changeDescription,
  before: row.before ?? null,
  after: row.after ?? null,
  createdAt: row.createdAt,
});

/** Extension: an app's audit history, newest first, `limit` per page (default 50, max 500), `before` = nextCursor. */
export const listAuditRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/audit',
  operationId: 'listAudit',
  summary: 'Audit history of an app',
  surface: 'management',
  tags: ['Audit'],
  auth: { kind: 'management', scope: 'read' },
  params: AppParamsSchema,
  query: ListAuditQuerySchema,
  response: ListAuditResponseSchema,
  async handle({ params, query, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    return auditPage(services, { orgId: app.orgId, appId: app.id }, query);
  },
});

/**
 * Extension: the organisation's whole audit history, newest first: every app's entries and those that belong to no
 * app (management keys created and revoked, members added and changed), which no app's history shows.
 */
export const listOrganizationAuditRoute = defineRoute({
  method: 'GET',
  path: '/audit',
  operationId: 'listOrganizationAudit',
  summary: 'Audit history of the organisation, apps, keys and members included',
  surface: 'management',
  tags: ['Audit'],
  auth: { kind: 'management', scope: 'read' },
  query: ListAuditQuerySchema,
  response: ListAuditResponseSchema,
  async handle({ query, principal, services }) {
    return auditPage(services, { orgId: orgIdOf(principal) }, query);
  },
});

/** `flag.*` asks for every action under `flag.`; anything else is one exact action. */
const actionFilter = (action: string): AuditListFilter['action'] =>
  action.endsWith('.*') ? { prefix: action.slice(0, -1) } : { exact: action };

async function auditPage(services: Services, scope: { orgId: string; appId?: string }, query: ListAuditQuery) {
  const limit = query.limit ?? AUDIT_LIMIT_DEFAULT;
  const filter: AuditListFilter = { ...scope, limit: limit + 1 };
  if (query.before !== undefined) filter.before = decodeCursor(query.before);
  if (query.envId !== undefined) filter.envId = query.envId;
  if (query.actor !== undefined) filter.actor = query.actor;
  if (query.action !== undefined) filter.action = actionFilter(query.action);
  // One extra row tells whether another page exists without a count query. The cursor is the last row's own
  // (createdAt, id), so it stays valid under the same filters: the next page is the next matches, never a gap.
  const rows = await services.storage.audit.list(filter);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const names = await actorNames(services, scope.orgId, page);
  return { data: page.map((row) => toAuditEntry(row, names)), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/**
 * The readable name of each actor of a page, looked up once per actor: a member's name (`member:<id>`), else a
 * management key's. Names are read now, so a renamed member shows under their current name.
 */
async function actorNames(services: Services, orgId: string, rows: AuditRecord[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const actor of new Set(rows.map((row) => row.actor))) {
    if (actor.startsWith(PERSON_PREFIX)) {
      const member = await services.storage.members.get(actor.slice(PERSON_PREFIX.length));
      if (member && member.orgId === orgId) names.set(actor, member.name);
    } else if (!actor.startsWith('sdk:') && actor !== 'system') {
      const key = await services.storage.managementKeys.get(actor);
      if (key && key.orgId === orgId) names.set(actor, key.name);
    }
  }
  return names;
}
