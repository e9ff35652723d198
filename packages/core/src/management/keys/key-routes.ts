import { mutate } from '../../domain/mutation.js';
import { newId, newManagementKey } from '../../domain/ids.js';
import { notFound, notPossible } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import {
  CreateManagementKeyBodySchema,
  CreateManagementKeyResponseSchema,
  ListManagementKeysResponseSchema,
  ManagementKeyParamsSchema,
  ManagementKeySchema,
  type ManagementKey,
} from '../../schemas/management-key.js';
import { sha256Hex } from '../../security/secrets.js';
import type { ManagementKeyRecord } from '../../storage/records.js';
import { actorOf, orgIdOf } from '../access.js';

/** Never the hash, never the secret. */
const toManagementKey = (row: ManagementKeyRecord): ManagementKey => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  prefix: row.prefix,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
});

/** `read` like every GET (architecture.md): a listing holds names, scopes and prefixes, never a usable secret. */
export const listKeysRoute = defineRoute({
  method: 'GET',
  path: '/keys',
  operationId: 'listManagementKeys',
  summary: 'List the management keys of the organization',
  surface: 'management',
  tags: ['Management keys'],
  auth: { kind: 'management', scope: 'read' },
  response: ListManagementKeysResponseSchema,
  async handle({ principal, services }) {
    const orgId = orgIdOf(principal);
    return { data: (await services.storage.managementKeys.listByOrg(orgId)).map(toManagementKey) };
  },
});

/** Creates a key; the answer is the only time the secret is shown (it is stored as its SHA-256). */
export const createKeyRoute = defineRoute({
  method: 'POST',
  path: '/keys',
  operationId: 'createManagementKey',
  summary: 'Create a management key',
  surface: 'management',
  tags: ['Management keys'],
  auth: { kind: 'management', scope: 'admin' },
  body: CreateManagementKeyBodySchema,
  response: CreateManagementKeyResponseSchema,
  async handle({ body, principal, services }) {
    const actor = actorOf(principal);
    const secret = newManagementKey();
    const { result } = await mutate(services, actor, async (tx) => {
      const row: ManagementKeyRecord = {
        id: newId('mk'),
        orgId: actor.orgId,
        name: body.name,
        scopes: [...body.scopes],
        hash: sha256Hex(secret),
        prefix: secret.slice(0, 8),
        createdAt: services.now().toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      };
      await tx.managementKeys.insert(row);
      tx.recordAudit({ appId: null, envId: null, action: 'managementKey.created', targetType: 'managementKey', targetId: row.id, changeDescription: null, before: null, after: toManagementKey(row) });
      return row;
    });
    return { key: toManagementKey(result), secret };
  },
});

/**
 * Revokes a key (it answers 401 from then on; the row stays for the audit trail). Idempotent. The organisation's
 * last active admin key cannot be revoked (400 not_possible): nobody could create keys any more.
 */
export const revokeKeyRoute = defineRoute({
  method: 'DELETE',
  path: '/keys/{keyId}',
  operationId: 'revokeManagementKey',
  summary: 'Revoke a management key',
  surface: 'management',
  tags: ['Management keys'],
  auth: { kind: 'management', scope: 'admin' },
  params: ManagementKeyParamsSchema,
  response: ManagementKeySchema,
  async handle({ params, principal, services }) {
    const actor = actorOf(principal);
    const { result } = await mutate(services, actor, async (tx) => {
      const key = await tx.managementKeys.get(params.keyId);
      if (!key || key.orgId !== actor.orgId) throw notFound(`Management key ${params.keyId}`);
      if (key.revokedAt) return key;
      const isActiveAdmin = (k: ManagementKeyRecord) => !k.revokedAt && k.scopes.includes('admin');
      if (isActiveAdmin(key) && (await tx.managementKeys.listByOrg(actor.orgId)).filter(isActiveAdmin).length <= 1) {
        throw notPossible('This is the last active admin key of the organization; create another admin key first');
      }
      const revokedAt = services.now().toISOString();
      await tx.managementKeys.update(key.id, { revokedAt });
      const after = { ...key, revokedAt };
      tx.recordAudit({ appId: null, envId: null, action: 'managementKey.revoked', targetType: 'managementKey', targetId: key.id, changeDescription: null, before: toManagementKey(key), after: toManagementKey(after) });
      return after;
    });
    return toManagementKey(result);
  },
});
