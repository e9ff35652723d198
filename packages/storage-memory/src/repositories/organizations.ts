import type { AppRepository, MemberRepository, OrganizationRepository } from '@flagmount/core';
import { key } from '../tables.js';
import { by, copy, copyAll, normalize, patchRow } from '../rows.js';
import type { Db } from '../view.js';

export function organizationRepository(db: Db): OrganizationRepository {
  const t = db.organizations;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async list() {
      return copyAll(t.rows().sort(by((r) => r.createdAt, (r) => r.id)));
    },
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async update(id, patch) {
      return patchRow(t, key(id), patch, ['id', 'createdAt']);
    },
  };
}

export function appRepository(db: Db): AppRepository {
  const t = db.apps;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async list(filter) {
      const orgId = filter?.orgId;
      const rows = t.rows().filter((r) => orgId === undefined || r.orgId === orgId);
      return copyAll(rows.sort(by((r) => r.createdAt, (r) => r.id)));
    },
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async update(id, patch) {
      return patchRow(t, key(id), patch, ['id', 'orgId', 'createdAt']);
    },
  };
}

export function memberRepository(db: Db): MemberRepository {
  const t = db.members;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async listByOrg(orgId) {
      const rows = t.rows().filter((r) => r.orgId === orgId);
      return copyAll(rows.sort(by((r) => r.name, (r) => r.id)));
    },
    async upsert(row) {
      t.write(normalize(t, row), 'upsert');
    },
  };
}
