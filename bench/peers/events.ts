import { randomBytes } from 'node:crypto';

/**
 * The ingestion workload: tracking events as the SDKs send them. Event names are not flag keys, so each event is
 * exactly one `track_events` row (no stats rows), the same row the raw-driver peer inserts.
 */
export interface BenchEvent {
  event: string;
  userId: string;
  companyId: string;
  attributes: Record<string, unknown>;
}

const NAMES = ['page-view', 'checkout-started', 'invite-sent', 'report-exported'];

export function benchEvent(i: number): BenchEvent {
  return {
    event: NAMES[i % NAMES.length]!,
    userId: `user-${i % 5000}`,
    companyId: `company-${i % 100}`,
    attributes: { path: `/app/page-${i % 37}`, plan: ['free', 'pro', 'enterprise'][i % 3], step: i % 7 },
  };
}

/** `count` different `POST /bulk` bodies of `perRequest` `event` items each. */
export function bulkBodies(count: number, perRequest: number): string[] {
  return Array.from({ length: count }, (_, b) =>
    JSON.stringify(Array.from({ length: perRequest }, (_, i) => ({ type: 'event', ...benchEvent(b * perRequest + i) }))),
  );
}

/** `count` different `POST /event` bodies. */
export function eventBodies(count: number): string[] {
  return Array.from({ length: count }, (_, i) => JSON.stringify(benchEvent(i)));
}

/** A `track_events` row as the raw peers insert it: the columns Flagmount's store writes, JSON as text. */
export function rawRow(i: number, envId: string, at: string): string[] {
  const e = benchEvent(i);
  return [`ev${randomBytes(9).toString('base64url')}`, envId, e.userId, e.companyId, e.event, JSON.stringify(e.attributes), at];
}

export const TRACK_COLUMNS = ['id', 'env_id', 'user_id', 'company_id', 'event', 'attributes', 'timestamp'] as const;
