import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, seed, startMount, tempDir } from '../../packages/cli/test/support/cli.js';
import { postgresUrl, requirePostgres, SchemaPool } from '../support/postgres.js';

const available = await requirePostgres('flagmount CLI on --pg');

/** The CLI's Postgres transport: a setup exported from SQLite goes into a fresh schema and comes back byte-equal. */
describe.skipIf(!available)('flagmount --pg', () => {
  const schemas = new SchemaPool(postgresUrl);
  const tmp = tempDir();
  afterAll(async () => {
    await schemas.dropAll();
    tmp.remove();
  });

  beforeAll(async () => {
    const mount = await startMount(join(tmp.dir, 'source.db'));
    await seed(mount);
    await mount.close();
  });

  it('imports into an empty schema, exports the same bytes, lists and toggles flags', async () => {
    const schema = schemas.next();
    const pg = ['--pg', postgresUrl, '--schema', schema];
    expect((await cli(['flags', 'list', ...pg], tmp.dir)).code).toBe(3);
    expect((await cli(['export', '--db', 'source.db', '--out', 'setup.json'], tmp.dir)).code).toBe(0);
    const imported = await cli(['import', 'setup.json', ...pg], tmp.dir);
    expect(imported.code, imported.stderr).toBe(0);
    const exported = await cli(['export', ...pg], tmp.dir);
    expect(exported.stdout).toBe(readFileSync(join(tmp.dir, 'setup.json'), 'utf8'));
    const on = await cli(['flags', 'on', 'new-checkout', '--env', 'Production', ...pg], tmp.dir);
    expect(on.code, on.stderr).toBe(0);
    expect((await cli(['flags', 'list', ...pg], tmp.dir)).stdout).toMatch(/new-checkout\s+New checkout\s+Beta\s+targeted\s+everyone/);
  });
});
