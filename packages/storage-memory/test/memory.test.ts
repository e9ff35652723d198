import { StorageUnavailableError, type Transaction } from '@flagmount/core';
import { entity, environment, flag, organization, seedBase, trackEvent } from '@flagmount/storage-conformance';
import { memoryStorage } from '@flagmount/storage-memory';
import { describe, expect, it } from 'vitest';

describe('memoryStorage: beyond the port', () => {
  it('is kind "memory" and needs no migration', async () => {
    const storage = memoryStorage({});
    expect(storage.kind).toBe('memory');
    await storage.migrate();
    await storage.close();
  });

  it('rejects (instead of deadlocking) a transaction or a storage write started inside a transaction', async () => {
    const storage = memoryStorage();
    await seedBase(storage);
    await expect(
      storage.transaction(async () => storage.transaction(async () => 1)),
    ).rejects.toThrow(/inside a transaction/);
    await expect(
      storage.transaction(async () => storage.organizations.insert(organization({ id: 'org_b' }))),
    ).rejects.toThrow(/use tx/);
    // Reads of committed state stay allowed inside a transaction.
    const outside = await storage.transaction(async (tx) => {
      await tx.organizations.insert(organization({ id: 'org_c' }));
      return storage.organizations.get('org_c');
    });
    expect(outside).toBeUndefined();
    expect(await storage.organizations.get('org_c')).toBeDefined();
  });

  it('rejects the use of a transaction after it finished', async () => {
    const storage = memoryStorage();
    let leaked: Transaction | undefined;
    await storage.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.organizations.insert(organization())).rejects.toThrow(/already finished/);
    expect(() => leaked!.publishChange('env_a', 1)).toThrow(/already finished/);
    expect(await storage.organizations.list()).toEqual([]);
  });

  it('serialises transactions in call order', async () => {
    const storage = memoryStorage();
    const order: number[] = [];
    await Promise.all(
      [30, 0, 10].map((delay, i) =>
        storage.transaction(async () => {
          order.push(i);
          await new Promise((resolve) => setTimeout(resolve, delay));
          order.push(i);
        }),
      ),
    );
    expect(order).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('close() lets queued transactions finish, then rejects new work with StorageUnavailableError', async () => {
    const storage = memoryStorage();
    await seedBase(storage);
    const running = storage.transaction(async (tx) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return tx.environments.bumpVersion('env_a');
    });
    const queued = storage.transaction((tx) => tx.environments.bumpVersion('env_a'));
    await storage.close();
    expect(await running).toBe(1);
    expect(await queued).toBe(2);
    await expect(storage.environments.get('env_a')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.publishChange('env_a', 1)).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.migrate()).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(typeof storage.onChange(() => undefined)).toBe('function');
  });

  it('stores what a database would: known columns, JSON values, undefined patch fields left alone', async () => {
    const storage = memoryStorage();
    await seedBase(storage);
    await storage.flags.insert({ ...flag(), extra: 'dropped' } as ReturnType<typeof flag>);
    expect(await storage.flags.get('flag_a')).toEqual(flag());

    await storage.flags.update('flag_a', { name: undefined, description: 'set' });
    expect(await storage.flags.get('flag_a')).toEqual({ ...flag(), description: 'set' });
    // Fields the patch type excludes are ignored at run time too.
    await storage.flags.update('flag_a', { key: 'changed', id: 'x' } as never);
    expect((await storage.flags.get('flag_a'))?.key).toBe('key_flag_a');
    await storage.environments.update('env_a', { flagStateVersion: 99 } as never);
    expect((await storage.environments.get('env_a'))?.flagStateVersion).toBe(0);

    await storage.entities.put(entity({ attributes: { when: new Date(0), gone: undefined, keep: 1 } }));
    expect((await storage.entities.get('env_a', 'user', 'user_a'))?.attributes).toEqual({
      when: '1970-01-01T00:00:00.000Z',
      keep: 1,
    });
  });

  it('keeps SDK keys unique across both kinds', async () => {
    const storage = memoryStorage();
    await seedBase(storage);
    const first = environment();
    await expect(
      storage.environments.insert(environment({ id: 'env_b', publishableKey: first.secretKey })),
    ).rejects.toThrow(/sdkKey/);
    // Swapping keys between environments inside one transaction is fine: only the final state must be unique.
    await storage.environments.insert(environment({ id: 'env_b' }));
    await storage.transaction(async (tx) => {
      await tx.environments.update('env_a', { secretKey: 'sec_tmp_0123456789abcdefghijklmno' });
      await tx.environments.update('env_b', { secretKey: first.secretKey });
    });
    expect((await storage.environments.getBySdkKey(first.secretKey))?.id).toBe('env_b');
    expect((await storage.environments.getBySdkKey('sec_tmp_0123456789abcdefghijklmno'))?.id).toBe('env_a');
  });

  it('dumps every table by name, sorted by key (event logs in insertion order)', async () => {
    const storage = memoryStorage();
    await seedBase(storage);
    await storage.organizations.insert(organization({ id: 'org_0' }));
    await storage.events.insertTracks([trackEvent({ id: 'trk_z' }), trackEvent({ id: 'trk_a' })]);
    const dump = await storage.dump();
    expect(Object.keys(dump).sort()).toEqual(
      [
        'apps',
        'audit',
        'checkEvents',
        'entities',
        'entityFlagStats',
        'environments',
        'feedback',
        'flagDailyStats',
        'flags',
        'managementKeys',
        'members',
        'memberships',
        'organizations',
        'promptEvents',
        'schedules',
        'segments',
        'specificTargets',
        'stages',
        'targeting',
        'trackEvents',
      ].sort(),
    );
    expect((dump['organizations'] as { id: string }[]).map((o) => o.id)).toEqual(['org_0', 'org_a']);
    expect((dump['trackEvents'] as { id: string }[]).map((t) => t.id)).toEqual(['trk_z', 'trk_a']);
    await storage.close();
  });
});
