import {
  StorageUnavailableError,
  type ChangeListener,
  type Repositories,
  type Storage,
  type Transaction,
} from '@flagmount/core';
import type { StorageFactory } from '@flagmount/storage-conformance';
import { memoryStorage } from '@flagmount/storage-memory';

/** Every method of the port, listed so that the type checker notices when the port grows. */
export const PORT_METHODS: { readonly [R in keyof Repositories]: Readonly<Record<keyof Repositories[R], true>> } = {
  organizations: { get: true, list: true, insert: true, update: true },
  apps: { get: true, list: true, insert: true, update: true },
  environments: { get: true, listByApp: true, listAll: true, getBySdkKey: true, insert: true, update: true, bumpVersion: true },
  stages: { get: true, listByApp: true, insert: true, update: true, delete: true },
  segments: { get: true, listByApp: true, insert: true, update: true, delete: true },
  members: { get: true, listByOrg: true, upsert: true },
  flags: { get: true, getByKey: true, listByApp: true, insert: true, update: true },
  targeting: { get: true, listByEnv: true, put: true },
  specificTargets: { listByEnv: true, listForEntity: true, add: true, remove: true },
  entities: {
    get: true,
    getMany: true,
    put: true,
    delete: true,
    addMembership: true,
    listCompanyUsers: true,
    listUserCompanies: true,
    listAttributesPage: true,
    search: true,
  },
  events: {
    insertTracks: true,
    insertChecks: true,
    insertPromptEvents: true,
    listTracks: true,
    listChecks: true,
    listPromptEvents: true,
  },
  feedback: { get: true, put: true, listByEnv: true },
  stats: {
    mergeEntityFlagStats: true,
    listEntityFlagStats: true,
    mergeFlagDailyStats: true,
    listFlagDailyStats: true,
    listFlagTotals: true,
  },
  audit: { insert: true, list: true },
  managementKeys: { get: true, getByHash: true, listByOrg: true, insert: true, update: true },
  schedules: { get: true, insert: true, listByFlag: true, listDue: true, settle: true },
};

export const STORAGE_METHODS = ['migrate', 'transaction', 'onChange', 'publishChange', 'dump', 'close', 'tx.publishChange'];

type AnyFn = (...args: never[]) => unknown;
type Wrap = (repository: keyof Repositories, method: string, original: AnyFn) => AnyFn;

/** `repos` with every method passed through `wrap`. */
export function mapRepos(repos: Repositories, wrap: Wrap): Repositories {
  const out: Record<string, Record<string, AnyFn>> = {};
  for (const name of Object.keys(PORT_METHODS) as (keyof Repositories)[]) {
    const repository = repos[name] as unknown as Record<string, AnyFn>;
    out[name] = Object.fromEntries(Object.keys(PORT_METHODS[name]).map((m) => [m, wrap(name, m, repository[m]!)]));
  }
  return out as unknown as Repositories;
}

/**
 * A handle on a memory database that outlives the handle, like a file or a server: closing the handle leaves
 * the database, `reopen` and `second` open new handles on it. A correct model of a persistent, shared store.
 */
function handle(db: Storage): Storage {
  let closed = false;
  const offs = new Set<() => void>();
  const guard = <F extends AnyFn>(f: F): F =>
    (async (...args: Parameters<F>) => {
      if (closed) throw new StorageUnavailableError('handle closed');
      return f(...args);
    }) as unknown as F;
  return {
    ...db,
    ...mapRepos(db, (_r, _m, f) => guard(f)),
    migrate: guard(db.migrate),
    transaction: guard(db.transaction) as Storage['transaction'],
    publishChange: guard(db.publishChange),
    dump: guard(db.dump),
    onChange(listener: ChangeListener) {
      const off = db.onChange(listener);
      offs.add(off);
      return () => {
        off();
        offs.delete(off);
      };
    },
    async close() {
      closed = true;
      for (const off of offs) off();
      offs.clear();
    },
  };
}

/** Stores with `reopen` and `second`, as a persistent shared database would offer. */
export function handleFactory(wrapHandle: (h: Storage, db: Storage) => Storage = (h) => h): StorageFactory {
  const databases = new WeakMap<Storage, Storage>();
  const open = (db: Storage) => {
    const h = wrapHandle(handle(db), db);
    databases.set(h, db);
    return h;
  };
  return {
    create: async () => open(memoryStorage()),
    reopen: async (previous) => open(databases.get(previous)!),
    second: async (first) => open(databases.get(first)!),
  };
}

/** A factory of memory stores, each passed through `breakIt`. */
export function brokenFactory(breakIt: (inner: Storage) => Storage): StorageFactory {
  return { create: async () => breakIt(memoryStorage()) };
}

/** `storage` with some repository methods replaced (outside transactions, and inside when `inTx`). */
export function withMethods(
  storage: Storage,
  replace: (repos: Repositories) => Partial<{ [R in keyof Repositories]: Partial<Repositories[R]> }>,
  inTx = true,
): Storage {
  const apply = <T extends Repositories>(repos: T): T => {
    const changes = replace(repos);
    const out = { ...repos } as Record<string, unknown>;
    for (const [name, methods] of Object.entries(changes)) {
      out[name] = { ...(repos[name as keyof Repositories] as object), ...methods };
    }
    return out as T;
  };
  return {
    ...apply(storage),
    transaction: inTx ? (fn) => storage.transaction((tx) => fn(apply(tx))) : storage.transaction,
  };
}

/** A transaction that is no transaction: fn runs on the store itself, write by write. */
export function autocommitTx(storage: Storage, publish: Transaction['publishChange']): Transaction {
  return { ...mapRepos(storage, (_r, _m, f) => f), publishChange: publish };
}

/** Records every method of the port that runs (on the store and in transactions). */
export function recording(storage: Storage, called: Set<string>): Storage {
  const note = (label: string, f: AnyFn): AnyFn => (...args) => {
    called.add(label);
    return f(...args);
  };
  const wrap: Wrap = (r, m, f) => note(`${r}.${m}`, f);
  return {
    ...storage,
    ...mapRepos(storage, wrap),
    migrate: note('migrate', storage.migrate) as Storage['migrate'],
    onChange: note('onChange', storage.onChange) as Storage['onChange'],
    publishChange: note('publishChange', storage.publishChange) as Storage['publishChange'],
    dump: note('dump', storage.dump) as Storage['dump'],
    close: note('close', storage.close) as Storage['close'],
    transaction: (fn) => {
      called.add('transaction');
      return storage.transaction((tx) =>
        fn({ ...mapRepos(tx, wrap), publishChange: note('tx.publishChange', tx.publishChange) as Transaction['publishChange'] }),
      );
    },
  };
}
