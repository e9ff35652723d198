import { setTimeout as sleep } from 'node:timers/promises';
import { NotFoundError, type ChangeListener, type ChangeNotice, type Storage, type Transaction } from '@flagmount/core';
import {
  checkApps,
  checkAuditFilters,
  checkAuditList,
  checkBumpVersionAcrossHandles,
  checkBumpVersionConcurrent,
  checkCheckRing,
  checkCloseIsIdempotent,
  checkCloseReleasesResources,
  checkDump,
  checkEntityDeleteCascade,
  checkEntityFlagStatsMerge,
  checkEnvironments,
  checkEventLogs,
  checkFlags,
  checkGroups,
  checkIsolation,
  checkMigrateIsIdempotent,
  checkNoticeAfterCommit,
  checkNoticeDroppedOnRollback,
  checkNestedTransactionRejects,
  checkOrganizations,
  checkRejectsAfterClose,
  checkReopenKeepsWrites,
  checkRollbackOfEveryWrite,
  checkRollbackOnConflict,
  checkRowsAreCopies,
  checkSecondHandleNotices,
  checkSerialisedReadModifyWrite,
  checkThrowingListener,
  compareIds,
  runCheck,
  type CheckFunction,
  type StorageFactory,
} from '@flagmount/storage-conformance';
import { memoryStorage } from '@flagmount/storage-memory';
import { describe, expect, it } from 'vitest';
import {
  autocommitTx,
  brokenFactory,
  handleFactory,
  PORT_METHODS,
  recording,
  STORAGE_METHODS,
  withMethods,
} from './fakes.js';

/** The check must reject on the broken store, with the message of the rule it guards (not some other error). */
async function expectCaught(check: CheckFunction, factory: StorageFactory, rule: RegExp): Promise<void> {
  const error = await runCheck(check, factory).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the check passed on a broken store').toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(rule);
}

/** A bumpVersion that reads, waits, then writes: two concurrent calls both write the same value. */
function racyBump(inner: Storage) {
  return async (id: string): Promise<number> => {
    const env = await inner.environments.get(id);
    if (env === undefined) throw new NotFoundError(id);
    const target = env.flagStateVersion + 1;
    await sleep(1);
    let current = (await inner.environments.get(id))!.flagStateVersion;
    while (current < target) current = await inner.environments.bumpVersion(id);
    return target;
  };
}

/** Transactions without isolation or rollback: fn writes straight to the store; notices go out after fn. */
function noRollback(inner: Storage): Storage {
  return {
    ...inner,
    async transaction(fn) {
      const queued: ChangeNotice[] = [];
      const result = await fn(autocommitTx(inner, (envId, version) => void queued.push({ envId, version })));
      for (const n of queued) await inner.publishChange(n.envId, n.version);
      return result;
    },
  };
}

const breakages: Array<{ breakage: string; check: CheckFunction; factory: StorageFactory; rule: RegExp }> = [
  {
    breakage: 'bumpVersion loses increments under concurrency',
    check: checkBumpVersionConcurrent,
    factory: brokenFactory((inner) => {
      const bump = racyBump(inner);
      const racy = withMethods(inner, (r) => ({ environments: { ...r.environments, bumpVersion: bump } }), false);
      const tx = (): Transaction => ({ ...autocommitTx(racy, () => undefined), environments: racy.environments });
      return { ...racy, transaction: (fn) => fn(tx()) };
    }),
    rule: /lost an increment/,
  },
  { breakage: 'a failed transaction keeps its writes', check: checkRollbackOfEveryWrite, factory: brokenFactory(noRollback), rule: /rolled-back transaction left writes/ },
  { breakage: 'writes before a conflict survive it', check: checkRollbackOnConflict, factory: brokenFactory(noRollback), rule: /rolled back/ },
  { breakage: 'uncommitted writes are visible outside', check: checkIsolation, factory: brokenFactory(noRollback), rule: /uncommitted/ },
  { breakage: 'transactions interleave (lost update)', check: checkSerialisedReadModifyWrite, factory: brokenFactory(noRollback), rule: /lost an update/ },
  {
    breakage: 'notices are delivered before commit',
    check: checkNoticeAfterCommit,
    factory: brokenFactory((inner) => ({
      ...inner,
      transaction: (fn) => inner.transaction((tx) => fn({ ...tx, publishChange: (e, v) => void inner.publishChange(e, v) })),
    })),
    rule: /before its transaction committed/,
  },
  {
    breakage: 'notices of a rolled-back transaction are delivered',
    check: checkNoticeDroppedOnRollback,
    factory: brokenFactory((inner) => ({
      ...inner,
      async transaction(fn) {
        const queued: ChangeNotice[] = [];
        try {
          return await inner.transaction((tx) => fn({ ...tx, publishChange: (e, v) => void queued.push({ envId: e, version: v }) }));
        } finally {
          for (const n of queued) await inner.publishChange(n.envId, n.version);
        }
      },
    })),
    rule: /rolled-back transaction was delivered/,
  },
  {
    breakage: 'a throwing listener fails the committed transaction',
    check: checkThrowingListener,
    factory: brokenFactory((inner) => {
      const listeners = new Set<ChangeListener>();
      return {
        ...inner,
        onChange: (l) => (listeners.add(l), () => void listeners.delete(l)),
        async transaction(fn) {
          const queued: ChangeNotice[] = [];
          const result = await inner.transaction((tx) => fn({ ...tx, publishChange: (e, v) => void queued.push({ envId: e, version: v }) }));
          for (const n of queued) for (const l of listeners) l(n);
          return result;
        },
      };
    }),
    rule: /listener failure/,
  },
  {
    breakage: 'get of a missing row resolves null',
    check: checkOrganizations,
    factory: brokenFactory((inner) => withMethods(inner, (r) => ({ organizations: { ...r.organizations, get: async (id) => (await r.organizations.get(id)) ?? (null as never) } }))),
    rule: /missing id/,
  },
  {
    breakage: 'a unique violation surfaces as a raw driver error',
    check: checkOrganizations,
    factory: brokenFactory((inner) =>
      withMethods(inner, (r) => ({
        organizations: { ...r.organizations, insert: (row) => r.organizations.insert(row).catch(() => Promise.reject(new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed'))) },
      })),
    ),
    rule: /ConflictError/,
  },
  {
    breakage: 'update of a missing row resolves true',
    check: checkApps,
    factory: brokenFactory((inner) => withMethods(inner, (r) => ({ apps: { ...r.apps, update: async (id, p) => (await r.apps.update(id, p), true) } }))),
    rule: /missing row/,
  },
  {
    breakage: 'a duplicate (appId, key) is accepted',
    check: checkFlags,
    factory: brokenFactory((inner) => withMethods(inner, (r) => ({ flags: { ...r.flags, insert: (row) => r.flags.insert(row).catch(() => undefined) } }))),
    rule: /flags\.insert duplicate/,
  },
  {
    breakage: 'environments listed by id instead of order',
    check: checkEnvironments,
    factory: brokenFactory((inner) =>
      withMethods(inner, (r) => ({
        environments: { ...r.environments, listByApp: async (appId) => (await r.environments.listByApp(appId)).sort((a, b) => compareIds(a.id, b.id)) },
      })),
    ),
    rule: /by order, then id/,
  },
  {
    breakage: 'events listed by id instead of insertion order',
    check: checkEventLogs,
    factory: brokenFactory((inner) =>
      withMethods(inner, (r) => ({ events: { ...r.events, listTracks: async (e, l) => (await r.events.listTracks(e, 1000)).sort((a, b) => compareIds(a.id, b.id)).slice(0, l) } })),
    ),
    rule: /insertion order/,
  },
  {
    breakage: 'the check ring ignores keep',
    check: checkCheckRing,
    factory: brokenFactory((inner) =>
      withMethods(inner, (r) => ({
        events: {
          ...r.events,
          // Ignores `keep`: the ring never drops its oldest.
          insertChecks: (rows) => r.events.insertChecks(rows),
        },
      })),
    ),
    rule: /keeps the newest/,
  },
  {
    breakage: 'stats merge replaces counts instead of adding',
    check: checkEntityFlagStatsMerge,
    factory: brokenFactory((inner) =>
      withMethods(inner, (r) => ({
        stats: {
          ...r.stats,
          async mergeEntityFlagStats(deltas) {
            for (const d of deltas) {
              const old = (await r.stats.listEntityFlagStats(d.envId, d.entityType, d.entityId)).find((s) => s.flagKey === d.flagKey);
              const minus = (a: number, b = 0) => a - b;
              await r.stats.mergeEntityFlagStats([
                { ...d, exposureCount: minus(d.exposureCount, old?.exposureCount), checkCount: minus(d.checkCount, old?.checkCount), trackCount: minus(d.trackCount, old?.trackCount) },
              ]);
            }
          },
        },
      })),
    ),
    rule: /counts add/,
  },
  {
    breakage: 'the audit cursor is inclusive',
    check: checkAuditList,
    factory: brokenFactory((inner) =>
      withMethods(inner, (r) => ({
        audit: {
          ...r.audit,
          list: async ({ before, ...rest }) =>
            (await r.audit.list({ ...rest, limit: 1000 }))
              .filter((a) => !before || a.createdAt < before.createdAt || (a.createdAt === before.createdAt && a.id <= before.id))
              .slice(0, rest.limit),
        },
      })),
    ),
    rule: /`before`/,
  },
  {
    breakage: 'audit filters apply after the limit (short pages)',
    check: checkAuditFilters,
    factory: brokenFactory((inner) =>
      withMethods(inner, (r) => ({
        audit: { ...r.audit, list: async ({ orgId, appId, before, limit, ...filter }) => (await r.audit.list({ orgId, appId, before, limit })).filter((a) => !filter.envId || a.envId === filter.envId) },
      })),
    ),
    rule: /pages are full/,
  },
  {
    breakage: 'entity delete does not cascade',
    check: checkEntityDeleteCascade,
    factory: brokenFactory((inner) =>
      withMethods(inner, (r) => ({
        entities: {
          ...r.entities,
          async delete(envId, type, id) {
            const overrides = await r.specificTargets.listForEntity(envId, type, id);
            const stats = await r.stats.listEntityFlagStats(envId, type, id);
            const deleted = await r.entities.delete(envId, type, id);
            for (const o of overrides) await r.specificTargets.add(o);
            await r.stats.mergeEntityFlagStats(stats);
            return deleted;
          },
        },
      })),
    ),
    rule: /overrides/,
  },
  {
    breakage: 'rows handed out are shared with the store',
    check: checkRowsAreCopies,
    factory: brokenFactory((inner) => {
      const cache = new Map<string, Awaited<ReturnType<Storage['entities']['get']>>>();
      return withMethods(inner, (r) => ({
        entities: {
          ...r.entities,
          put: async (row) => (cache.set(`${row.envId}/${row.type}/${row.id}`, row), r.entities.put(row)),
          get: async (envId, type, id) => cache.get(`${envId}/${type}/${id}`) ?? r.entities.get(envId, type, id),
        },
      }));
    }),
    rule: /mutating a row after writing it/,
  },
  {
    breakage: 'dump() leaves a table out',
    check: checkDump,
    factory: brokenFactory((inner) => ({ ...inner, dump: async () => ({ ...(await inner.dump()), audit: [] }) })),
    rule: /audit\.insert/,
  },
  {
    breakage: 'migrate() fails on a migrated store',
    check: checkMigrateIsIdempotent,
    factory: brokenFactory((inner) => {
      let runs = 0;
      return {
        ...inner,
        async migrate() {
          if (runs++ > 0) throw new Error('relation "flags" already exists');
        },
      };
    }),
    rule: /already exists/,
  },
  {
    breakage: 'close() rejects the second time',
    check: checkCloseIsIdempotent,
    factory: brokenFactory((inner) => {
      let closed = false;
      return { ...inner, close: async () => (closed ? Promise.reject(new Error('pool already ended')) : ((closed = true), inner.close())) };
    }),
    rule: /already ended/,
  },
  {
    breakage: 'a nested transaction waits for the outer one',
    check: checkNestedTransactionRejects,
    factory: brokenFactory((inner) => {
      let queue: Promise<unknown> = Promise.resolve();
      return {
        ...inner,
        transaction: (fn) => {
          const run = queue.then(() => inner.transaction(fn));
          queue = run.catch(() => undefined);
          return run;
        },
      };
    }),
    rule: /deadlock/,
  },
  {
    breakage: 'close() leaves a timer running',
    check: checkCloseReleasesResources,
    // A poll timer close() forgets (single-shot here, so the test process is not kept alive by it afterwards).
    factory: brokenFactory((inner) => (setTimeout(() => undefined, 3000), inner)),
    rule: /still held 2 s after close/,
  },
  { breakage: 'close() does nothing', check: checkRejectsAfterClose, factory: brokenFactory((inner) => ({ ...inner, close: async () => undefined })), rule: /after close/ },
  {
    breakage: 'reopening gives an empty database',
    check: checkReopenKeepsWrites,
    factory: { ...handleFactory(), reopen: async () => memoryStorage() },
    rule: /reopening lost/,
  },
  {
    breakage: 'notices do not reach a second handle',
    check: checkSecondHandleNotices,
    factory: (() => {
      const base = handleFactory();
      return { ...base, second: async (first: Storage) => ({ ...(await base.second!(first)), onChange: () => () => undefined }) };
    })(),
    rule: /never reached the other handle/,
  },
  {
    breakage: 'bumpVersion races across handles',
    check: checkBumpVersionAcrossHandles,
    factory: handleFactory((h) => {
      const bump = racyBump(h);
      return { ...h, transaction: (fn) => fn({ ...autocommitTx(h, () => undefined), environments: { ...h.environments, bumpVersion: bump } }) };
    }),
    rule: /lost an increment across two handles/,
  },
];

describe('the conformance suite catches broken stores', () => {
  for (const { breakage, check, factory, rule } of breakages) {
    it(`${check.name} catches: ${breakage}`, () => expectCaught(check, factory, rule));
  }
});

describe('the conformance suite passes a correct persistent, shared store (memory behind handles)', () => {
  const factory = handleFactory();
  for (const group of checkGroups) {
    for (const check of group.checks) it(`${group.name}: ${check.name}`, () => runCheck(check.run, factory));
  }
});

describe('the conformance suite covers the whole port', () => {
  it('calls every method of every repository, of Storage and of Transaction', async () => {
    const called = new Set<string>();
    const factory = handleFactory((h) => recording(h, called));
    for (const group of checkGroups) for (const check of group.checks) await runCheck(check.run, factory);
    const expected = [
      ...Object.entries(PORT_METHODS).flatMap(([repo, methods]) => Object.keys(methods).map((m) => `${repo}.${m}`)),
      ...STORAGE_METHODS,
    ];
    expect(expected.filter((m) => !called.has(m)), 'port methods no check calls').toEqual([]);
  });
});
