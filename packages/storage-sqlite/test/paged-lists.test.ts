import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlagRecord, SpecificTargetRecord, Storage } from '@flagmount/core';
import { app, environment, flag as fixtureFlag, organization } from '@flagmount/storage-conformance';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_ROWS } from '../../storage-kysely/src/repositories/paged.js';

// The lists a snapshot load reads come back in pages of PAGE_ROWS rows (keyset pagination). The conformance suite
// stores far fewer rows than a page, so these lists cross several page boundaries, with ties on the leading order
// column so that the keyset's later columns decide.

const COUNT = PAGE_ROWS * 2 + 345;
const T0 = '2024-01-01T00:00:00.000Z';
const T1 = '2024-01-02T00:00:00.000Z';

let dir: string;
let storage: Storage;

/** Ids in a scrambled order, so that insertion order, rowid order and list order all differ. */
const scrambled = (prefix: string, i: number) => `${prefix}${String((i * 7919) % COUNT).padStart(6, '0')}`;
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// Most flags share one creation time: only the id orders them.
const flagNumber = (i: number): FlagRecord =>
  fixtureFlag({ id: scrambled('fl', i), key: `flag-${scrambled('fl', i)}`, createdAt: i % 10 === 0 ? T1 : T0, updatedAt: T0 });

const flags = Array.from({ length: COUNT }, (_, i) => flagNumber(i));
// Specific targets of a few flags only, so that flag_id ties and entity_type / entity_id decide.
const targets: SpecificTargetRecord[] = flags.slice(0, 7).flatMap((f, n) =>
  Array.from({ length: Math.ceil(COUNT / 7) }, (_, i): SpecificTargetRecord => ({
    flagId: f.id,
    envId: 'env_a',
    entityType: (i + n) % 2 === 0 ? 'user' : 'company',
    entityId: scrambled('u', i),
    createdAt: T0,
  })),
);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flagmount-sqlite-paged-'));
  storage = sqliteStorage({ filename: join(dir, 'paged.db'), pollIntervalMs: 0 });
  await storage.migrate();
  await storage.transaction(async (tx) => {
    await tx.organizations.insert(organization());
    await tx.apps.insert(app());
    await tx.environments.insert(environment());
    for (const f of flags) {
      await tx.flags.insert(f);
      await tx.targeting.put({
        flagId: f.id,
        envId: 'env_a',
        version: 1,
        rules: [{ filter: { type: 'constant', value: true } }],
        configVersion: 0,
        variants: [],
        updatedAt: T0,
      });
    }
    for (const t of targets) await tx.specificTargets.add(t);
  });
}, 60_000);

afterAll(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

describe('lists longer than one page', () => {
  it('flags.listByApp: every flag once, by creation time then id', async () => {
    const expected = [...flags].sort((a, b) => byCodePoint(a.createdAt, b.createdAt) || byCodePoint(a.id, b.id));
    expect(await storage.flags.listByApp('app_a')).toEqual(expected);
  });

  it('targeting.listByEnv: every row once, by flag id', async () => {
    const listed = await storage.targeting.listByEnv('env_a');
    expect(listed.map((t) => t.flagId)).toEqual(flags.map((f) => f.id).sort(byCodePoint));
    expect(listed[0]).toEqual(await storage.targeting.get(listed[0]!.flagId, 'env_a'));
  });

  it('specificTargets.listByEnv: every row once, by flag, entity type, entity id', async () => {
    const key = (t: SpecificTargetRecord) => [t.flagId, t.entityType, t.entityId] as const;
    const expected = [...targets].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return byCodePoint(x[0], y[0]) || byCodePoint(x[1], y[1]) || byCodePoint(x[2], y[2]);
    });
    expect(expected.length).toBeGreaterThan(PAGE_ROWS * 2);
    expect(await storage.specificTargets.listByEnv('env_a')).toEqual(expected);
  });

  it('reads the same inside a transaction', async () => {
    const outside = await storage.flags.listByApp('app_a');
    expect(await storage.transaction((tx) => tx.flags.listByApp('app_a'))).toEqual(outside);
  });
});
