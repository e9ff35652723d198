import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, MANAGEMENT_KEY, startMount, tempDir, type RunningMount } from './support/cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'packages/cli/src/bin.ts');

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('flagmount: mistakes get one line and an exit code, never a stack', () => {
  let tmp: ReturnType<typeof tempDir>;
  let mount: RunningMount;

  beforeAll(async () => {
    tmp = tempDir();
    mount = await startMount(join(tmp.dir, 'flags.db'));
  });
  afterAll(async () => {
    await mount.close();
    tmp.remove();
  });

  it('a wrong management key: exit 4', async () => {
    const result = await cli(['flags', 'list', '--url', mount.url, '--key', 'fmk_wrong'], tmp.dir);
    expect(result).toEqual({ code: 4, stdout: '', stderr: `flagmount: The management key was refused by ${mount.url}: Invalid management API key\n` });
  });

  it('an unreachable URL, or one that is not a mount: exit 3', async () => {
    const port = await closedPort();
    const down = await cli(['export', '--url', `http://127.0.0.1:${port}/flags`, '--key', MANAGEMENT_KEY], tmp.dir);
    expect(down).toEqual({ code: 3, stdout: '', stderr: `flagmount: Cannot reach http://127.0.0.1:${port}/flags: ECONNREFUSED\n` });
    const elsewhere = await cli(['export', '--url', mount.url.replace('/flags', '/nothing'), '--key', MANAGEMENT_KEY], tmp.dir);
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toMatch(/^flagmount: .* did not answer as a Flagmount mount \(HTTP 404\)\n$/);
  });

  it('a store that does not exist or cannot be opened: exit 3', async () => {
    expect(await cli(['flags', 'list', '--db', 'nope.db'], tmp.dir)).toEqual({ code: 3, stdout: '', stderr: 'flagmount: No SQLite store at nope.db\n' });
    writeFileSync(join(tmp.dir, 'text.db'), 'this is not a database, just text long enough to have a header '.repeat(4));
    const garbage = await cli(['flags', 'list', '--db', 'text.db'], tmp.dir);
    expect(garbage.code).toBe(3);
    expect(garbage.stderr).toMatch(/^flagmount: Cannot open text\.db: .+\n$/);
    const pg = await cli(['flags', 'list', '--pg', `postgres://127.0.0.1:${await closedPort()}/test`], tmp.dir);
    expect(pg.code).toBe(3);
    expect(pg.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('wrong usage: exit 2', async () => {
    for (const argv of [['frobnicate'], ['export', '--bogus'], ['export'], ['export', '--db', 'a.db', '--url', 'http://x'], ['export', '--format', 'xml', '--db', 'a.db'], ['import'], ['flags'], ['flags', 'flip']]) {
      const result = await cli(argv, tmp.dir);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
  });

  it('--help on every command', async () => {
    for (const argv of [[], ['--help'], ['types', '--help'], ['export', '-h'], ['import', '--help'], ['flags', '--help'], ['flags', 'on', '--help']]) {
      const result = await cli(argv, tmp.dir);
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout, argv.join(' ')).toMatch(/Usage: flagmount/);
    }
  });

  it('the bin sets the exit code of its process and prints no stack', async () => {
    const run = promisify(execFile);
    const failure = await run(process.execPath, ['--import', 'tsx', BIN, 'flags', 'list', '--url', mount.url, '--key', 'fmk_wrong'], { cwd: ROOT }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 4, stdout: '' });
    expect((failure as { stderr: string }).stderr).toBe(`flagmount: The management key was refused by ${mount.url}: Invalid management API key\n`);
    const ok = await run(process.execPath, ['--import', 'tsx', BIN, 'flags', 'list', '--url', mount.url, '--key', MANAGEMENT_KEY], { cwd: ROOT });
    expect(ok.stdout).toBe('No flags in My app.\n');
  });
});
