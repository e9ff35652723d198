import type { FlagRepository, SegmentRepository, StageRepository } from '@flagmount/core';
import { key } from '../tables.js';
import { by, copy, copyAll, normalize, patchRow } from '../rows.js';
import type { Db } from '../view.js';

export function stageRepository(db: Db): StageRepository {
  const t = db.stages;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async listByApp(appId) {
      const rows = t.rows().filter((r) => r.appId === appId);
      return copyAll(rows.sort(by((r) => r.order, (r) => r.id)));
    },
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async update(id, patch) {
      return patchRow(t, key(id), patch, ['id', 'appId']);
    },
    async delete(id) {
      return t.delete(key(id));
    },
  };
}

export function segmentRepository(db: Db): SegmentRepository {
  const t = db.segments;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async listByApp(appId) {
      const rows = t.rows().filter((r) => r.appId === appId);
      return copyAll(rows.sort(by((r) => r.createdAt, (r) => r.id)));
    },
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async update(id, patch) {
      return patchRow(t, key(id), patch, ['id', 'appId', 'createdAt']);
    },
    async delete(id) {
      return t.delete(key(id));
    },
  };
}

export function flagRepository(db: Db): FlagRepository {
  const t = db.flags;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async getByKey(appId, flagKey) {
      return copy(t.findUnique('appKey', key(appId, flagKey)));
    },
    async listByApp(appId) {
      const rows = t.rows().filter((r) => r.appId === appId);
      return copyAll(rows.sort(by((r) => r.createdAt, (r) => r.id)));
    },
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async update(id, patch) {
      return patchRow(t, key(id), patch, ['id', 'appId', 'key', 'createdAt']);
    },
  };
}
