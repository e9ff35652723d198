import { ConflictError, StorageUnavailableError } from '@flagmount/core';
import { channelName, mapPostgresError, postgresStorage, postgresStoreDialect } from '@flagmount/storage-postgres';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';

const pgError = (code: string, message = 'boom', extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra });

describe('mapPostgresError', () => {
  it('turns unique violations into ConflictError, keeping the cause', () => {
    const original = pgError('23505', 'duplicate key', { detail: 'Key (id)=(x) already exists.' });
    const mapped = mapPostgresError(original);
    expect(mapped).toBeInstanceOf(ConflictError);
    expect((mapped as Error).message).toBe('Key (id)=(x) already exists.');
    expect((mapped as Error).cause).toBe(original);
  });

  it('turns lost or refused connections into StorageUnavailableError', () => {
    for (const error of [
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('08006'),
      pgError('53300', 'too many connections'),
      pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([pgError('ECONNREFUSED')], ''),
    ]) {
      expect(mapPostgresError(error), String(error)).toBeInstanceOf(StorageUnavailableError);
    }
  });

  it('leaves everything else alone', () => {
    const syntax = pgError('42601', 'syntax error');
    expect(mapPostgresError(syntax)).toBe(syntax);
    const mine = new ConflictError('already mapped');
    expect(mapPostgresError(mine)).toBe(mine);
    expect(mapPostgresError('not an error')).toBe('not an error');
  });
});

describe('postgresStoreDialect.transaction', () => {
  /** A stand-in for Kysely whose transactions fail with the given errors, then succeed. */
  function flaky(failures: unknown[]): { db: Kysely<never>; attempts: () => number } {
    let attempts = 0;
    const db = {
      transaction: () => ({
        execute: async () => {
          attempts++;
          const failure = failures.shift();
          if (failure) throw failure;
          return 'committed';
        },
      }),
    };
    return { db: db as unknown as Kysely<never>, attempts: () => attempts };
  }
  const dialect = postgresStoreDialect({
    schema: 'public',
    channel: 'c',
    origin: 'o',
    appendConcurrency: 4,
    maxAttempts: 3,
    feed: {
      connectionString: 'postgres://unused',
      applicationName: 'test',
      pollIntervalMs: 1000,
      disconnectedPollIntervalMs: 1000,
      listen: false,
      reconnect: { minMs: 1, maxMs: 1 },
    },
  });

  it('retries deadlock victims and serialisation failures', async () => {
    const { db, attempts } = flaky([pgError('40P01'), pgError('40001')]);
    await expect(dialect.transaction(db as never, async () => 'x')).resolves.toBe('committed');
    expect(attempts()).toBe(3);
  });

  it('gives up after maxAttempts, and never retries other errors', async () => {
    const stuck = flaky([pgError('40P01'), pgError('40P01'), pgError('40P01'), pgError('40P01')]);
    await expect(dialect.transaction(stuck.db as never, async () => 'x')).rejects.toMatchObject({ code: '40P01' });
    expect(stuck.attempts()).toBe(3);
    const conflict = flaky([pgError('23505')]);
    await expect(dialect.transaction(conflict.db as never, async () => 'x')).rejects.toMatchObject({ code: '23505' });
    expect(conflict.attempts()).toBe(1);
  });
});

describe('postgresStorage options', () => {
  it('rejects a schema that is not a plain identifier', () => {
    expect(() => postgresStorage({ connectionString: 'postgres://x', schema: 'bad"; drop table x; --' })).toThrow(TypeError);
    expect(() => postgresStorage({ connectionString: 'postgres://x', schema: '' })).toThrow(TypeError);
  });

  it('keeps channel names within Postgres’ 63-byte identifier limit, one per schema', () => {
    expect(channelName('public')).toBe('flagmount_changes_public');
    const long = channelName('s'.repeat(63));
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).not.toBe(channelName(`${'s'.repeat(62)}t`));
  });

  it('reports an unreachable server as StorageUnavailableError, and closes cleanly', async () => {
    const storage = postgresStorage({
      connectionString: 'postgres://postgres@127.0.0.1:1/test',
      pool: { connectionTimeoutMillis: 500 },
    });
    await expect(storage.migrate()).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.environments.get('env_a')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.transaction(async () => 1)).rejects.toBeInstanceOf(StorageUnavailableError);
    await storage.close();
  });
});
