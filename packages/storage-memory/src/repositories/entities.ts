import type { EntityRepository, EntityType } from '@flagmount/core';
import { key } from '../tables.js';
import { by, compare, copy, copyAll, normalize } from '../rows.js';
import type { Db } from '../view.js';

/** Lower-cases ASCII letters only, as SQL's lower() does in SQLite, so every store matches the same entities. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

export function entityRepository(db: Db): EntityRepository {
  const t = db.entities;
  const memberships = db.memberships;

  /** Removes every membership, override and stats row of the entity (whether or not the entity row exists). */
  function cascade(envId: string, type: EntityType, id: string): void {
    for (const m of memberships.rows()) {
      if (m.envId === envId && (type === 'user' ? m.userId : m.companyId) === id) {
        memberships.delete(memberships.table.spec.key(m));
      }
    }
    for (const o of db.specificTargets.rows()) {
      if (o.envId === envId && o.entityType === type && o.entityId === id) {
        db.specificTargets.delete(db.specificTargets.table.spec.key(o));
      }
    }
    for (const s of db.entityFlagStats.rows()) {
      if (s.envId === envId && s.entityType === type && s.entityId === id) {
        db.entityFlagStats.delete(db.entityFlagStats.table.spec.key(s));
      }
    }
  }

  return {
    async get(envId, type, id) {
      return copy(t.get(key(envId, type, id)));
    },
    async getMany(envId, type, ids) {
      const found = [...new Set(ids)].sort(compare).map((id) => t.get(key(envId, type, id)));
      return copyAll(found.filter((row) => row !== undefined));
    },
    async put(row) {
      t.write(normalize(t, row), 'upsert');
    },
    async delete(envId, type, id) {
      const existed = t.delete(key(envId, type, id));
      cascade(envId, type, id);
      return existed;
    },
    async addMembership(row) {
      const normalized = normalize(memberships, row);
      // Idempotent: an existing membership keeps its original createdAt.
      if (memberships.get(memberships.table.spec.key(normalized)) === undefined) {
        memberships.write(normalized, 'insert');
      }
    },
    async listCompanyUsers(envId, companyId) {
      const rows = memberships.rows().filter((m) => m.envId === envId && m.companyId === companyId);
      return rows.sort(by((m) => m.userId)).map((m) => m.userId);
    },
    async listAttributesPage(envId, type, afterId, limit) {
      const rows = t.rows().filter((e) => e.envId === envId && e.type === type && (afterId === undefined || e.id > afterId));
      return copyAll(rows.sort(by((e) => e.id)).slice(0, limit)).map(({ id, attributes }) => ({ id, attributes }));
    },
    async listUserCompanies(envId, userId) {
      const rows = memberships.rows().filter((m) => m.envId === envId && m.userId === userId);
      return rows.sort(by((m) => m.companyId)).map((m) => m.companyId);
    },
    async search(envId, type, { search, limit, after }) {
      const q = asciiLower(search);
      const rows = t
        .rows()
        .filter((e) => e.envId === envId && e.type === type && (after === undefined || compare(e.id, after) > 0))
        .filter((e) => !q || asciiLower(e.id).startsWith(q) || (e.name !== null && asciiLower(e.name).includes(q)));
      return copyAll(rows.sort(by((e) => e.id)).slice(0, limit));
    },
  };
}
