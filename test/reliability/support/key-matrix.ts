import type { RouteDefinition } from '@flagmount/core';
import { errorBodyProblems, ofrepFailureProblems } from './error-body.js';
import type { World } from './isolation-world.js';
import { MATRIX, type Column } from './key-kinds.js';
import type { Send } from './request-senders.js';
import { specAccess } from './route-access.js';

/**
 * The isolation matrix itself: one row per route (a concrete request), one column per key kind (key-kinds.ts),
 * the expected status of each cell from the spec's access rules (route-access.ts), and the run over every cell.
 */

/** A route's answer once the key is accepted. */
function authorized(route: RouteDefinition): number {
  if (route.method === 'GET') return 200;
  if (route.method === 'DELETE') return 404;
  return 400;
}

/** The concrete request of a row: real ids for reads and writes, missing ids for deletes, an invalid body for writes. */
function rowRequest(route: RouteDefinition, w: World): { method: string; path: string; body?: string } {
  const ids = route.method === 'DELETE' ? { ...w.ids, ...w.missing } : w.ids;
  let path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? name));
  if (path === '/ui') path = '/ui/';
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : JSON.stringify('not an object');
  return { method: route.method, path, ...(body !== undefined ? { body } : {}) };
}

export function expectedStatus(route: RouteDefinition, column: Column): number {
  const access = specAccess(route);
  const rule = access.kind === 'public' ? 'ok' : access.kind === 'management' ? column.management(access, route) : column.runtime(access, route);
  return rule === 'ok' ? authorized(route) : rule;
}

export interface Mismatch {
  cell: string;
  expected: number;
  actual: number;
  problems: string[];
}

/** Runs every cell; resolves the cells whose status or error body differs from the table. */
export async function runMatrix(send: Send, routes: readonly RouteDefinition[], w: World): Promise<{ cells: number; mismatches: Mismatch[] }> {
  const mismatches: Mismatch[] = [];
  let cells = 0;
  for (const route of routes) {
    const row = rowRequest(route, w);
    for (const column of MATRIX) {
      const presented = column.present(w);
      const expected = expectedStatus(route, column);
      const answer = await send(row.method, row.path, {
        ...(presented.authorization ? { authorization: presented.authorization } : {}),
        ...(presented.query ? { query: presented.query } : {}),
        ...(row.body !== undefined ? { body: row.body } : {}),
      });
      cells++;
      const ofrep = answer.status >= 400 && route.path.startsWith('/ofrep/') ? ofrepFailureProblems(answer.status, answer.text) : undefined;
      const problems = answer.status < 400 ? [] : (ofrep ?? errorBodyProblems(answer.status, answer.contentType, answer.text));
      if (answer.status !== expected || problems.length) {
        mismatches.push({ cell: `${route.method} ${route.path} × ${column.name}`, expected, actual: answer.status, problems });
      }
    }
  }
  return { cells, mismatches };
}

export const format = (mismatches: Mismatch[]) =>
  mismatches.map((m) => `${m.cell}: expected ${m.expected}, got ${m.actual}${m.problems.length ? ` (${m.problems.join('; ')})` : ''}`).join('\n');
