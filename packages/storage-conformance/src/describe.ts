import type { Storage } from '@flagmount/core';
import { afterAll, describe, it } from 'vitest';
import { appendOnlyChecks } from './suites/append-only.js';
import { auditKeyChecks } from './suites/audit-keys.js';
import { catalogChecks } from './suites/catalog.js';
import { entityChecks } from './suites/entities.js';
import { environmentChecks } from './suites/environments.js';
import { eventChecks } from './suites/events.js';
import { lifecycleChecks } from './suites/lifecycle.js';
import { noticeChecks } from './suites/notices.js';
import { organizationChecks } from './suites/organizations.js';
import { safeReleaseChecks } from './suites/safe-releases.js';
import { sharedChecks } from './suites/shared.js';
import { statsChecks } from './suites/stats.js';
import { transactionChecks } from './suites/transactions.js';
import type { CheckFunction, CheckGroup, StorageFactory } from './types.js';
import { sleep } from './util.js';

/** Every check of the suite, by group. */
export const checkGroups: readonly CheckGroup[] = [
  organizationChecks,
  environmentChecks,
  catalogChecks,
  entityChecks,
  eventChecks,
  statsChecks,
  auditKeyChecks,
  transactionChecks,
  appendOnlyChecks,
  noticeChecks,
  lifecycleChecks,
  sharedChecks,
  safeReleaseChecks,
];

/**
 * Runs one check on a fresh store of `factory`: create, migrate, check, then close every store the check opened
 * (through `reopen`/`second` too). Rejects when the store breaks the rule. Usable outside `describe`.
 */
export async function runCheck(check: CheckFunction, factory: StorageFactory): Promise<void> {
  const opened: Storage[] = [];
  const track = async (storage: Promise<Storage>) => {
    const s = await storage;
    opened.push(s);
    return s;
  };
  const tracking: StorageFactory = {
    create: () => track(factory.create()),
    ...(factory.reopen ? { reopen: (previous: Storage) => track(factory.reopen!(previous)) } : {}),
    ...(factory.second ? { second: (first: Storage) => track(factory.second!(first)) } : {}),
  };
  try {
    const storage = await tracking.create();
    await storage.migrate();
    await check(storage, tracking);
  } finally {
    // Bounded: a store left stuck by the broken rule (a deadlocked transaction) must not hide the check's message.
    for (const storage of opened.reverse()) await Promise.race([storage.close().catch(() => undefined), sleep(5000)]);
  }
}

/**
 * Per check, whatever the project's vitest config says: some checks wait up to 5 s for a change notice or for
 * concurrent transactions, and they must fail with their own message, not with vitest's default 5 s timeout.
 */
const CHECK_TIMEOUT_MS = 30_000;

/**
 * Registers the storage conformance suite with vitest: one test per rule of the storage port. Call it at the top
 * level of a test file: `describeStorageConformance('my store', { create: async () => myStorage() })`.
 * Checks that need `factory.reopen` or `factory.second` are skipped when the factory lacks them.
 */
export function describeStorageConformance(name: string, factory: StorageFactory): void {
  describe(`storage conformance: ${name}`, () => {
    afterAll(async () => {
      await factory.cleanup?.();
    });
    for (const group of checkGroups) {
      describe(group.name, () => {
        for (const check of group.checks) {
          const missing = check.requires !== undefined && factory[check.requires] === undefined;
          // Reason: this check needs a capability the factory does not offer (e.g. reopen for a :memory: store).
          if (missing) it.skip(`${check.name} (needs factory.${check.requires})`, () => undefined);
          else it(check.name, { timeout: CHECK_TIMEOUT_MS }, () => runCheck(check.run, factory));
        }
      });
    }
  });
}
