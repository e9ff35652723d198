import type { FlagTargetingRecord, SpecificTargetRepository, TargetingRepository } from '@flagmount/core';
import { key } from '../tables.js';
import { by, copy, copyAll, normalize } from '../rows.js';
import type { Db } from '../view.js';

/** `prerequisites` is optional: a row without any reads back without the field, as from a database's NULL. */
function withoutNullPrerequisites<R extends FlagTargetingRecord | undefined>(row: R): R {
  if (row && row.prerequisites === null) delete row.prerequisites;
  return row;
}

export function targetingRepository(db: Db): TargetingRepository {
  const t = db.targeting;
  return {
    async get(flagId, envId) {
      return withoutNullPrerequisites(copy(t.get(key(flagId, envId))));
    },
    async listByEnv(envId) {
      const rows = t.rows().filter((r) => r.envId === envId);
      return copyAll(rows.sort(by((r) => r.flagId))).map((r) => withoutNullPrerequisites(r));
    },
    async put(row) {
      t.write(normalize(t, row), 'upsert');
    },
  };
}

export function specificTargetRepository(db: Db): SpecificTargetRepository {
  const t = db.specificTargets;
  return {
    async listByEnv(envId) {
      const rows = t.rows().filter((r) => r.envId === envId);
      return copyAll(rows.sort(by((r) => r.flagId, (r) => r.entityType, (r) => r.entityId)));
    },
    async listForEntity(envId, entityType, entityId) {
      const rows = t.rows().filter((r) => r.envId === envId && r.entityType === entityType && r.entityId === entityId);
      return copyAll(rows.sort(by((r) => r.flagId)));
    },
    async add(row) {
      const normalized = normalize(t, row);
      if (t.get(t.table.spec.key(normalized)) !== undefined) return false;
      t.write(normalized, 'insert');
      return true;
    },
    async remove(flagId, envId, entityType, entityId) {
      return t.delete(key(flagId, envId, entityType, entityId));
    },
  };
}
