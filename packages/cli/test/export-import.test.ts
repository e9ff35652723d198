import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, MANAGEMENT_KEY, seed, startMount, tempDir, type RunningMount } from './support/cli.js';

/**
 * export and import through both transports: a running mount (--url/--key) and the SQLite file itself (--db), each
 * compared byte for byte, with the versions the import advanced read back from the store.
 */
type Transport = 'sqlite' | 'url';

const AT = '2099-01-05T09:00:00.000Z';

/** On top of `seed`: a prerequisite and pending schedules (one naming a segment and a prerequisite), one cancelled. */
async function seedSafeReleases(mount: RunningMount): Promise<void> {
  const { api, appId } = mount;
  const dev = mount.envId('Development');
  const segments = (await api('GET', `/apps/${appId}/segments`)).data as Array<{ id: string; name: string }>;
  const beta = segments.find((s) => s.name === 'Beta testers')!.id;
  await api('PUT', `/apps/${appId}/flags/new-checkout/targeting/${dev}`, {
    rules: [{ filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 50000 } }],
    prerequisites: [{ flagKey: 'banner', isEnabled: false }],
  });
  const schedule = (flag: string, body: unknown) => api('POST', `/apps/${appId}/flags/${flag}/schedules`, body);
  await schedule('new-checkout', { envId: mount.envId('Production'), at: AT, targeting: { rules: [{ segmentId: beta, filter: { type: 'constant', value: true } }], prerequisites: [{ flagKey: 'banner', isEnabled: true }] } });
  await schedule('banner', { envId: dev, at: AT, targeting: { rules: [{ filter: { type: 'constant', value: true } }] } });
  const cancelled = await schedule('banner', { envId: dev, at: '2099-02-01T00:00:00.000Z', targeting: { rules: [] } });
  await api('DELETE', `/apps/${appId}/flags/banner/schedules/${cancelled.schedule.id}`);
}

describe.each<Transport>(['sqlite', 'url'])('export and import against %s', (transport) => {
  let tmp: ReturnType<typeof tempDir>;
  let source: RunningMount;
  let sourceArgs: string[];

  beforeEach(async () => {
    tmp = tempDir();
    source = await startMount(join(tmp.dir, 'source.db'));
    await seed(source);
    await seedSafeReleases(source);
    if (transport === 'sqlite') {
      await source.close();
      sourceArgs = ['--db', 'source.db'];
    } else sourceArgs = ['--url', source.url, '--key', MANAGEMENT_KEY];
  });
  afterEach(async () => {
    if (transport === 'url') await source.close();
    tmp.remove();
  });

  /** A second, empty store: a new SQLite file, or a freshly bootstrapped mount (its own app of the same name). */
  async function emptyTarget(): Promise<{ args: string[]; versions(): Promise<Record<string, number>>; close(): Promise<void> }> {
    if (transport === 'sqlite') {
      const args = ['--db', 'target.db'];
      return {
        args,
        async versions() {
          const mount = await startMount(join(tmp.dir, 'target.db'));
          const { data } = await mount.api('GET', `/apps/${mount.appId}/environments`);
          await mount.close();
          return Object.fromEntries(data.map((e: { name: string; flagStateVersion: number }) => [e.name, e.flagStateVersion]));
        },
        close: async () => {},
      };
    }
    const mount = await startMount(join(tmp.dir, 'target.db'));
    return {
      args: ['--url', mount.url, '--key', MANAGEMENT_KEY],
      async versions() {
        const { data } = await mount.api('GET', `/apps/${mount.appId}/environments`);
        return Object.fromEntries(data.map((e: { name: string; flagStateVersion: number }) => [e.name, e.flagStateVersion]));
      },
      close: () => mount.close(),
    };
  }

  it('exports the same bytes twice, in JSON and in YAML, without ids, keys or timestamps', async () => {
    const first = await cli(['export', ...sourceArgs], tmp.dir);
    const second = await cli(['export', ...sourceArgs], tmp.dir);
    expect(first.code, first.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const doc = JSON.parse(first.stdout);
    expect(doc.environments.map((e: { name: string }) => e.name)).toEqual(['Development', 'Production']);
    expect(doc.flags.map((f: { key: string }) => f.key)).toEqual(['banner', 'legacy-search', 'new-checkout']);
    expect(doc.flags[2]).toMatchObject({ stage: 'Beta', targeting: { Production: { rules: [{ segment: 'Beta testers' }] } } });
    expect(doc.flags[2].targeting.Development.prerequisites).toEqual([{ flagKey: 'banner', isEnabled: false }]);
    expect(doc.flags[2].schedules).toEqual({
      Production: [{ at: AT, targeting: { rules: [{ filter: { type: 'constant', value: true }, segment: 'Beta testers' }], prerequisites: [{ flagKey: 'banner', isEnabled: true }] } }],
    });
    // Pending only: the cancelled schedule is history.
    expect(doc.flags[0].schedules).toEqual({ Development: [{ at: AT, targeting: { rules: [{ filter: { type: 'constant', value: true } }] } }] });
    expect(first.stdout).not.toMatch(/"(id|createdAt|updatedAt|publishableKey|secretKey|segmentId|stageId)"/);
    expect(first.stdout).not.toMatch(/pub_fm_|sec_fm_|fmk_/);

    const yaml = await cli(['export', ...sourceArgs, '--out', 'setup.yaml'], tmp.dir);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(parseYaml(readFileSync(join(tmp.dir, 'setup.yaml'), 'utf8'))).toEqual(doc);
  });

  it('round-trips: export → import into an empty store → export gives the same bytes, each version advanced once', async () => {
    const exported = await cli(['export', ...sourceArgs, '--out', 'setup.json'], tmp.dir);
    expect(exported.code, exported.stderr).toBe(0);
    const target = await emptyTarget();
    try {
      const before = transport === 'url' ? await target.versions() : { Development: 0, Production: 0 };
      const imported = await cli(['import', 'setup.json', ...target.args], tmp.dir);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain('+ flag new-checkout');
      expect(imported.stdout).toContain(`+ schedule new-checkout in Production at ${AT}`);
      expect(imported.stdout).toContain(`+ schedule banner in Development at ${AT}`);
      expect(imported.stdout).toMatch(/Imported: \d+ created/);
      const after = await target.versions();
      expect(after).toEqual({ Development: before['Development']! + 1, Production: before['Production']! + 1 });

      const again = await cli(['export', ...target.args], tmp.dir);
      expect(again.stdout).toBe(readFileSync(join(tmp.dir, 'setup.json'), 'utf8'));

      // Idempotent: the same file again changes nothing (no schedule twice) and advances no version.
      const twice = await cli(['import', 'setup.json', ...target.args], tmp.dir);
      expect(twice.stdout).toMatch(/Imported: 0 created, 0 updated, \d+ unchanged/);
      expect((await cli(['export', ...target.args], tmp.dir)).stdout).toBe(readFileSync(join(tmp.dir, 'setup.json'), 'utf8'));
      expect(await target.versions()).toEqual(after);
    } finally {
      await target.close();
    }
  });

  it('--dry-run prints the diff and changes nothing', async () => {
    await cli(['export', ...sourceArgs, '--out', 'setup.json'], tmp.dir);
    const original = readFileSync(join(tmp.dir, 'setup.json'), 'utf8');
    const doc = JSON.parse(original);
    doc.flags[0].name = 'Banner, renamed';
    doc.flags[2].targeting.Production.rules = [];
    doc.flags[2].targeting.Development.prerequisites = [];
    doc.flags[2].schedules.Development = [{ at: '2099-03-01T00:00:00.000Z', targeting: { rules: [] } }];
    doc.flags.push({ ...doc.flags[0], key: 'extra', name: 'Extra' });
    writeFileSync(join(tmp.dir, 'changed.json'), JSON.stringify(doc));

    const dry = await cli(['import', 'changed.json', '--dry-run', '--app', 'My app', ...sourceArgs], tmp.dir);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('~ flag banner (name)');
    expect(dry.stdout).toContain('~ targeting new-checkout in Production (rules)');
    expect(dry.stdout).toContain('+ flag extra');
    expect(dry.stdout).toContain('~ targeting new-checkout in Development (prerequisites)');
    expect(dry.stdout).toContain('+ schedule new-checkout in Development at 2099-03-01T00:00:00.000Z');
    expect(dry.stdout).toContain(`+ schedule extra in Development at ${AT}`);
    expect(dry.stdout).not.toContain('schedule banner');
    expect(dry.stdout).toMatch(/Dry run: \d+ to create, 3 to update, \d+ unchanged\. Nothing was changed\./);
    expect((await cli(['export', ...sourceArgs], tmp.dir)).stdout).toBe(original);

    const applied = await cli(['import', 'changed.json', '--app', 'My app', ...sourceArgs], tmp.dir);
    expect(applied.code, applied.stderr).toBe(0);
    const after = JSON.parse((await cli(['export', ...sourceArgs], tmp.dir)).stdout);
    expect(after.flags.map((f: { key: string }) => f.key)).toEqual(['banner', 'extra', 'legacy-search', 'new-checkout']);
    expect(after.flags[0].name).toBe('Banner, renamed');
  });

  it('refuses an invalid file whole, naming the path of every problem', async () => {
    await cli(['export', ...sourceArgs, '--out', 'setup.json'], tmp.dir);
    const original = readFileSync(join(tmp.dir, 'setup.json'), 'utf8');
    const doc = JSON.parse(original);
    doc.flags[0].stage = 'Nowhere';
    doc.flags[2].targeting.Production.rules[0].segment = 'Ghosts';
    doc.flags[1].key = 'banner';
    doc.flags[1].targeting.Staging = doc.flags[1].targeting.Production;
    doc.stages[0].color = 'notacolour';
    writeFileSync(join(tmp.dir, 'bad.json'), JSON.stringify(doc));

    const refused = await cli(['import', 'bad.json', ...sourceArgs], tmp.dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^flagmount: Invalid import document \(5 problems\)\n/);
    for (const path of ['flags.0.stage', 'flags.2.targeting.Production.rules.0.segment', 'flags.1.key', 'flags.1.targeting.Staging', 'stages.0.color']) {
      expect(refused.stderr).toContain(`  ${path}: `);
    }
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect((await cli(['export', ...sourceArgs], tmp.dir)).stdout).toBe(original);

    // Shape errors: every field path the schema refuses.
    writeFileSync(join(tmp.dir, 'shape.yaml'), 'formatVersion: 1\napp: { name: "" }\nenvironments: []\nstages: []\nsegments: []\nflags: [{ key: x }]\n');
    const shape = await cli(['import', 'shape.yaml', ...sourceArgs], tmp.dir);
    expect(shape.code).toBe(1);
    for (const path of ['app.name', 'app.flagKeyFormat', 'environments', 'flags.0.name']) expect(shape.stderr).toContain(`  ${path}: `);

    // A cycle through prerequisites (banner → new-checkout → banner in Development) is refused whole, with its path.
    const cyclic = JSON.parse(original);
    cyclic.flags[0].targeting.Development.prerequisites = [{ flagKey: 'new-checkout', isEnabled: true }];
    writeFileSync(join(tmp.dir, 'cycle.json'), JSON.stringify(cyclic));
    const cycle = await cli(['import', 'cycle.json', ...sourceArgs], tmp.dir);
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toMatch(/\n {2}flags\.0\.targeting\.Development\.prerequisites: The prerequisites would make a cycle in Development: /);
    expect((await cli(['export', ...sourceArgs], tmp.dir)).stdout).toBe(original);

    writeFileSync(join(tmp.dir, 'broken.json'), '{ "formatVersion": 1,');
    const broken = await cli(['import', 'broken.json', ...sourceArgs], tmp.dir);
    expect(broken.code).toBe(1);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toContain('broken.json is not valid JSON');
    const missing = await cli(['import', 'missing.json', ...sourceArgs], tmp.dir);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('Cannot read') });
  });
});
