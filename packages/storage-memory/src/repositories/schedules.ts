import type { ScheduleRepository } from '@flagmount/core';
import { key } from '../tables.js';
import { by, copy, copyAll, normalize, patchRow } from '../rows.js';
import type { Db } from '../view.js';

export function scheduleRepository(db: Db): ScheduleRepository {
  const t = db.schedules;
  return {
    async get(id) {
      return copy(t.get(key(id)));
    },
    async insert(row) {
      t.write(normalize(t, row), 'insert');
    },
    async listByFlag(flagId, envId) {
      const rows = t.rows().filter((r) => r.flagId === flagId && (envId === undefined || r.envId === envId));
      return copyAll(rows.sort(by((r) => r.at, (r) => r.id)));
    },
    async listDue(now, limit) {
      const rows = t.rows().filter((r) => r.status === 'pending' && r.at <= now);
      return copyAll(rows.sort(by((r) => r.at, (r) => r.id)).slice(0, limit));
    },
    async settle(id, status, patch) {
      if (t.get(key(id))?.status !== 'pending') return false;
      return patchRow(t, key(id), { ...patch, status }, []);
    },
  };
}
