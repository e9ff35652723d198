import { NotFoundError, type EnvironmentRepository } from '@flagmount/core';
import { key } from '../tables.js';
import { by, copy, copyAll, normalize, patchRow } from '../rows.js';
import type { Db } from '../view.js';

export function environmentRepository(db: Db): EnvironmentRepository {
  const t = db.environments;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async listByApp(appId) {
      const rows = t.rows().filter((r) => r.appId === appId);
      return copyAll(rows.sort(by((r) => r.order, (r) => r.id)));
    },
    async listAll() {
      return copyAll(t.rows().sort(by((r) => r.appId, (r) => r.order, (r) => r.id)));
    },
    async getBySdkKey(sdkKey) {
      return copy(t.findUnique('sdkKey', sdkKey));
    },
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async update(id, patch) {
      return patchRow(t, key(id), patch, ['id', 'appId', 'createdAt', 'flagStateVersion']);
    },
    async bumpVersion(id) {
      const current = t.get(key(id));
      if (current === undefined) throw new NotFoundError(`environment ${id} not found`);
      const version = current.flagStateVersion + 1;
      t.write({ ...current, flagStateVersion: version }, 'upsert');
      return version;
    },
  };
}
