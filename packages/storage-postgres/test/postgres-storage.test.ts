import type { ChangeNotice, EnvironmentRecord, Storage } from '@flagmount/core';
import { postgresStorage, type PostgresStorageOptions } from '@flagmount/storage-postgres';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { admin, dropSchemas, freshSchema, POSTGRES_URL, postgresAvailable, sleep, waitFor } from './support.js';

const available = await postgresAvailable();

const schemas: string[] = [];
const opened: Storage[] = [];

function open(schema: string, options: Partial<PostgresStorageOptions> = {}): Storage {
  const storage = postgresStorage({ connectionString: POSTGRES_URL, schema, ...options });
  opened.push(storage);
  return storage;
}

function schemaFor(label: string): string {
  const schema = freshSchema(label);
  schemas.push(schema);
  return schema;
}

/** A writer `a` that does not listen, a store `b` whose notices are recorded, and b's listener backend killed. */
async function listenerDown(label: string) {
  const schema = schemaFor(label);
  const a = open(schema, { listen: false });
  const b = open(schema);
  await Promise.all([a.migrate(), b.migrate()]);
  await a.environments.insert(env());
  const seenB = record(b);
  const [pid] = await listenerPids(schema);
  await admin('select pg_terminate_backend($1)', [pid]);
  return { a, seenB };
}

const env = (over: Partial<EnvironmentRecord> = {}): EnvironmentRecord => ({
  id: 'env_a',
  appId: 'app_a',
  name: '0',
  isProduction: false,
  order: 0,
  flagStateVersion: 0,
  publishableKey: 'pub_0123456789abcdefghijklmnopq',
  secretKey: 'sec_0123456789abcdefghijklmnopq',
  createdAt: '2024-01-01T00:00:00.000Z',
  ...over,
});

function record(storage: Storage): ChangeNotice[] {
  const seen: ChangeNotice[] = [];
  storage.onChange((notice) => seen.push(notice));
  return seen;
}

const bumpAndPublish = (storage: Storage) =>
  storage.transaction(async (tx) => {
    const version = await tx.environments.bumpVersion('env_a');
    tx.publishChange('env_a', version);
    return version;
  });

const listenerPids = async (schema: string) =>
  (await admin<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [`flagmount-listener:${schema}`])).map(
    (row) => row.pid,
  );

const logger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });

afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});
afterAll(async () => {
  if (available) await dropSchemas(schemas);
});

describe.skipIf(!available)('postgresStorage against a live server', () => {
  it('migrate() creates the schema and every table in it, idempotently, even from two stores at once', async () => {
    const schema = schemaFor('migrate');
    const a = open(schema);
    const b = open(schema);
    await Promise.all([a.migrate(), b.migrate()]);
    await a.migrate();
    const tables = await admin<{ table_name: string }>(
      'select table_name from information_schema.tables where table_schema = $1 order by table_name',
      [schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['environments', 'flags', 'entity_flag_stats', 'flagmount_migration', 'change_notices']),
    );
    expect(await admin('select name from "' + schema + '".flagmount_migration')).toEqual([{ name: '0001_initial' }, { name: '0003_schedules' }, { name: '0005_check_ring' }, { name: '0006_daily_exposures' }]);
    await a.environments.insert(env());
    expect(await b.environments.get('env_a')).toEqual(env());
  });

  it('delivers a committed notice to a second store on the same schema, not a rolled-back one, not across schemas', async () => {
    const schema = schemaFor('notify');
    const a = open(schema);
    const b = open(schema);
    const other = open(schemaFor('notify_other'));
    await Promise.all([a.migrate(), b.migrate(), other.migrate()]);
    await a.environments.insert(env());
    await other.environments.insert(env());
    const seenB = record(b);
    const seenOther = record(other);
    await expect(
      a.transaction(async (tx) => {
        tx.publishChange('env_a', 42);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const version = await bumpAndPublish(a);
    await a.publishChange('env_a', 9);
    await waitFor(() => seenB.length >= 2, 'both notices on the second store');
    await sleep(50);
    expect(seenB).toEqual([
      { envId: 'env_a', version },
      { envId: 'env_a', version: 9 },
    ]);
    expect(seenOther, 'a store on another schema hears nothing').toEqual([]);
  });

  it('serialises read-modify-write transactions across two stores (pools)', async () => {
    const schema = schemaFor('serial');
    const a = open(schema);
    const b = open(schema);
    await Promise.all([a.migrate(), b.migrate()]);
    await a.environments.insert(env());
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).transaction(async (tx) => {
          const current = await tx.environments.get('env_a');
          await sleep(1);
          await tx.environments.update('env_a', { name: String(Number(current?.name) + 1) });
          await tx.environments.bumpVersion('env_a');
        }),
      ),
    );
    expect(await a.environments.get('env_a')).toMatchObject({ name: '20', flagStateVersion: 20 });
  });

  it('reconnects its listener after its backend is terminated, and logs through the injected logger', async () => {
    const schema = schemaFor('reconnect');
    const log = logger();
    // The writer does not listen, so the only listener backend of the schema is b's.
    const a = open(schema, { listen: false });
    const b = open(schema, { logger: log });
    await Promise.all([a.migrate(), b.migrate()]);
    await a.environments.insert(env());
    const seenB = record(b);
    const pids = await listenerPids(schema);
    expect(pids, 'b’s listener connection is up after migrate()').toHaveLength(1);
    const pid = pids[0];

    await admin('select pg_terminate_backend($1)', [pid]);
    await waitFor(() => log.warn.mock.calls.some(([message]) => message === 'postgres change listener lost its connection'), 'the loss to be logged');
    await waitFor(async () => (await listenerPids(schema)).some((p) => p !== pid), 'a new listener backend');
    await waitFor(() => log.info.mock.calls.some(([message]) => message === 'postgres change listener reconnected'), 'the reconnection to be logged');
    // Reconnected, it announces every environment once at its current version: notices that changed no version
    // (new environments, rotated keys) were lost with the connection too.
    await waitFor(() => seenB.length > 0, 'the catch-up announcement');
    expect(seenB).toEqual([{ envId: 'env_a', version: 0 }]);

    const version = await bumpAndPublish(a);
    await waitFor(() => seenB.some((n) => n.version === version), 'a notice through the new connection');
    expect(seenB).toEqual([{ envId: 'env_a', version: 0 }, { envId: 'env_a', version }]);
  });

  it('announces on reconnecting what changed no version while its listener was down', async () => {
    const { a, seenB } = await listenerDown('catchup_unversioned');
    // A new environment (version 0) and rotated keys (same version) while b hears nothing: no poll sees either.
    await a.transaction(async (tx) => {
      await tx.environments.insert(env({ id: 'env_b', name: '1', order: 1, publishableKey: 'pub_b123456789abcdefghijklmnopq', secretKey: 'sec_b123456789abcdefghijklmnopq' }));
      tx.publishChange('env_b', 0);
      await tx.environments.update('env_a', { publishableKey: 'pub_rotated89abcdefghijklmnopq' });
      tx.publishChange('env_a', 0);
    });
    await waitFor(() => seenB.some((n) => n.envId === 'env_b') && seenB.some((n) => n.envId === 'env_a'), 'both environments announced');
  });

  it('catches up on changes committed while its listener was down', async () => {
    const { a, seenB } = await listenerDown('catchup');
    // Committed while b has no LISTEN connection: the NOTIFY is lost, the poll on reconnection finds the bump.
    const version = await bumpAndPublish(a);
    await waitFor(() => seenB.some((n) => n.envId === 'env_a' && n.version === version), 'the missed change');
  });

  it('polls versions when LISTEN is off (listen: false), announcing rises nobody published', async () => {
    const schema = schemaFor('poll');
    const a = open(schema);
    await a.migrate();
    // The environment exists before b's first poll, its baseline: created after it, b would rightly announce it
    // (version 0) on whichever poll came first, before or after the rises this test is about.
    await a.environments.insert(env());
    const b = open(schema, { listen: false, pollIntervalMs: 50 });
    await b.migrate();
    expect(await listenerPids(schema), 'only the first store has a LISTEN connection').toHaveLength(1);
    const seenB = record(b);
    const published = await bumpAndPublish(a);
    await waitFor(() => seenB.some((n) => n.version === published), 'the polled change');
    const silent = await a.environments.bumpVersion('env_a');
    await waitFor(() => seenB.some((n) => n.version === silent), 'a rise that was never published');
    expect(seenB).toEqual([
      { envId: 'env_a', version: published },
      { envId: 'env_a', version: silent },
    ]);
  });

  it('close() ends the listener and the pool, idempotently', async () => {
    const schema = schemaFor('close');
    const storage = postgresStorage({ connectionString: POSTGRES_URL, schema });
    await storage.migrate();
    expect(await listenerPids(schema)).toHaveLength(1);
    await Promise.all([storage.close(), storage.close()]);
    await storage.close();
    await waitFor(async () => (await listenerPids(schema)).length === 0, 'the listener backend to go');
    await expect(storage.environments.listAll()).rejects.toThrow(/closed/);
  });
});
