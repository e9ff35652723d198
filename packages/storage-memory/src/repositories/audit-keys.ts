import type { AuditRecord, AuditRepository, ManagementKeyRepository } from '@flagmount/core';
import { key } from '../tables.js';
import { by, compare, copy, copyAll, normalize, patchRow } from '../rows.js';
import type { Db } from '../view.js';

const newestFirst = by<AuditRecord>([(r) => r.createdAt, 'desc'], [(r) => r.id, 'desc']);

export function auditRepository(db: Db): AuditRepository {
  const t = db.audit;
  return {
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async list({ orgId, appId, envId, actor, action, limit, before }) {
      if (limit <= 0) return [];
      const rows = t.rows().filter((r) => {
        if (r.orgId !== orgId) return false;
        if (appId !== undefined && r.appId !== appId) return false;
        if (envId !== undefined && r.envId !== envId) return false;
        if (actor !== undefined && r.actor !== actor) return false;
        if (action && ('exact' in action ? r.action !== action.exact : !r.action.startsWith(action.prefix))) return false;
        if (before === undefined) return true;
        // Strictly older than the cursor on (createdAt, id).
        const c = compare(r.createdAt, before.createdAt);
        return c < 0 || (c === 0 && compare(r.id, before.id) < 0);
      });
      return copyAll(rows.sort(newestFirst).slice(0, limit));
    },
  };
}

export function managementKeyRepository(db: Db): ManagementKeyRepository {
  const t = db.managementKeys;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async getByHash(hash) {
      return copy(t.findUnique('hash', hash));
    },
    async listByOrg(orgId) {
      const rows = t.rows().filter((r) => r.orgId === orgId);
      return copyAll(rows.sort(by((r) => r.createdAt, (r) => r.id)));
    },
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async update(id, patch) {
      return patchRow(t, key(id), patch, ['id', 'orgId', 'hash', 'createdAt']);
    },
  };
}
