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
    async insertChecks(rows) {
      insertAll(db.checkEvents, rows);
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
    async trimChecks(envId, keep, limit) {
      const view = db.checkEvents;
      const rows = view.rows().filter((r) => r.envId === envId);
      const excess = Math.min(Math.max(0, rows.length - Math.max(0, keep)), Math.max(0, limit));
      for (let i = 0; i < excess; i++) view.delete(view.table.spec.key(rows[i]!));
      return excess;
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
