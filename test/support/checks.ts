import type { Flagmount } from '@flagmount/core';
import { BatchBuilder } from '../../packages/core/src/runtime/ingest/batch-builder.js';

export const USERS = 1_000;
export const FLAGS = 10;
export const CHECKS = 100_000;
const PER_REQUEST = 500;

/**
 * `count` checks over the same USERS × FLAGS pairs, as `POST /bulk` submits them after validation (one batch per
 * request, requests concurrent so that the group commit gathers them).
 */
export async function ingestChecks(fm: Flagmount, envId: string, count: number): Promise<void> {
  const at = fm.services.now().toISOString();
  const requests: Promise<void>[] = [];
  for (let start = 0; start < count; start += PER_REQUEST) {
    const builder = new BatchBuilder(envId, new Set());
    for (let i = start; i < Math.min(count, start + PER_REQUEST); i++) {
      const user = i % USERS;
      builder.check(
        {
          action: 'check',
          key: `flag-${Math.floor(i / USERS) % FLAGS}`,
          targetingVersion: 1,
          evalContext: { user: { id: `user-${user}`, plan: 'pro' }, company: { id: `company-${user % 50}` } },
          evalResult: user % 2 === 0,
          evalRuleResults: [true, false],
          evalMissingFields: [],
        },
        at,
      );
    }
    requests.push(fm.services.ingestion.submit(builder.build()));
    if (requests.length >= 20) await Promise.all(requests.splice(0));
  }
  await Promise.all(requests);
  await fm.services.ingestion.flush();
}


