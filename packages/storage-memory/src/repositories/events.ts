import type { EventRepository, FeedbackRepository } from '@flagmount/core';
import { key } from '../tables.js';
import { by, copy, copyAll, normalize } from '../rows.js';
import type { Db, TableView } from '../view.js';

/** Inserts every row or (on a duplicate id, within the batch too) none: the caller's transaction is discarded. */
function insertAll<R>(view: TableView<R>, rows: readonly R[]): void {
  for (const row of rows) view.write(normalize(view, row), 'insert');
}

/** The first `limit` rows of an environment, in insertion order. */
function firstOfEnv<R extends { envId: string }>(view: TableView<R>, envId: string, limit: number): R[] {
  const out: R[] = [];
  if (limit <= 0) return out;
  for (const row of view.rows()) {
    if (row.envId !== envId) continue;
    out.push(row);
    if (out.length >= limit) break;
  }
  return copyAll(out);
}

export function eventRepository(db: Db): EventRepository {
  return {
    async insertTracks(rows) {
      insertAll(db.trackEvents, rows);
    },
    async insertChecks(rows, keep) {
      insertAll(db.checkEvents, rows);
      if (keep === undefined) return;
      // The ring: drop each touched environment's oldest beyond its newest `keep` (rows are in insertion order).
      const view = db.checkEvents;
      for (const envId of new Set(rows.map((r) => r.envId))) {
        const own = view.rows().filter((r) => r.envId === envId);
        for (const row of own.slice(0, Math.max(0, own.length - Math.max(0, keep)))) view.delete(view.table.spec.key(row));
      }
    },
    async insertPromptEvents(rows) {
      insertAll(db.promptEvents, rows);
    },
    async listTracks(envId, limit) {
      return firstOfEnv(db.trackEvents, envId, limit);
    },
    async listChecks(envId, limit) {
      return firstOfEnv(db.checkEvents, envId, limit);
    },
    async listPromptEvents(envId, limit) {
      return firstOfEnv(db.promptEvents, envId, limit);
    },
  };
}

export function feedbackRepository(db: Db): FeedbackRepository {
  const t = db.feedback;
  return {
    async get(envId, id) {
      return copy(t.get(key(envId, id)));
    },
    async put(row) {
      t.write(normalize(t, row), 'upsert');
    },
    async listByEnv(envId, limit) {
      if (limit <= 0) return [];
      const rows = t.rows().filter((r) => r.envId === envId);
      rows.sort(by([(r) => r.createdAt, 'desc'], [(r) => r.id, 'desc']));
      return copyAll(rows.slice(0, limit));
    },
  };
}
