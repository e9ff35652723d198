import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, MANAGEMENT_KEY, seed, startMount, tempDir, type RunningMount } from './support/cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Code a host writes against the generated file: every line compiles. */
const GOOD = `import type { ReflagClient } from '@reflag/node-sdk';
import type { FlagmountClient } from '@flagmount/core';
import type { Client } from '@openfeature/server-sdk';
import type { Client as WebClient } from '@openfeature/web-sdk';

declare const reflag: ReflagClient;
declare const flags: { client: FlagmountClient };
declare const openFeature: Client;
declare const web: WebClient;
type Banner = { color: string; size: number } | string | undefined;

export const a: boolean = flags.client.isEnabled('new-checkout', { user: { id: 'u1' } });
export const b: boolean = flags.client.bindClient({ user: { id: 'u1' } }).isEnabled('banner');
export const c: boolean = reflag.getFlag({ user: { id: 'u1' } }, 'new-checkout').isEnabled;
export const d: Banner = flags.client.getFlag({}, 'banner').config.payload;
export const e: Banner = reflag.getFlag({}, 'banner').config.payload;
export const f: Banner = flags.client.getFlags({}).banner.config.payload;
export const g: Promise<boolean> = openFeature.getBooleanValue('new-checkout', false, { targetingKey: 'u1' });
export const h = openFeature.getObjectDetails('banner', { color: 'red' });
export const i: boolean = web.getBooleanValue('new-checkout', false);
`;

/** Each line after the header is a mistake the generated types must catch. */
const BAD_HEADER = `import type { ReflagClient } from '@reflag/node-sdk';
import type { FlagmountClient } from '@flagmount/core';
import type { Client } from '@openfeature/server-sdk';
import type { Client as WebClient } from '@openfeature/web-sdk';

declare const reflag: ReflagClient;
declare const flags: { client: FlagmountClient };
declare const openFeature: Client;
declare const web: WebClient;
`;
const BAD_LINES = [
  "flags.client.isEnabled('typo');",
  "reflag.getFlag({}, 'typo');",
  "flags.client.bindClient({}).getFlag('typo');",
  "flags.client.isEnabled('legacy-search');",
  "export const n: number | undefined = flags.client.getFlag({}, 'banner').config.payload;",
  "export const m: number | undefined = reflag.getFlag({}, 'banner').config.payload;",
  // --openfeature: OpenFeature's clients take the keys of their method's type (the manifest's), live ones only.
  "openFeature.getBooleanValue('typo', false);",
  "openFeature.getBooleanValue('legacy-search', false);",
  "openFeature.getObjectValue('new-checkout', {});",
  "openFeature.getStringValue('banner', '');",
  "web.getBooleanDetails('typo', false);",
];

describe('flagmount types', () => {
  let tmp: ReturnType<typeof tempDir>;
  let mount: RunningMount;

  beforeAll(async () => {
    tmp = tempDir();
    mount = await startMount(join(tmp.dir, 'flags.db'));
    await seed(mount);
  });
  afterAll(async () => {
    await mount.close();
    tmp.remove();
  });

  it('writes the same declarations from a running mount and from the store, payloads as unions over environments', async () => {
    const fromUrl = await cli(['types', '--url', mount.url, '--key', MANAGEMENT_KEY], tmp.dir);
    expect(fromUrl.code, fromUrl.stderr).toBe(0);
    const text = fromUrl.stdout;
    expect(text).toContain('  "new-checkout": boolean;');
    expect(text).toMatch(/"banner": \{ config: \{ payload: string \| \{\n\s+color: string;\n\s+size: number;\n\s+\} \} \};/);
    expect(text).not.toContain('legacy-search');
    expect(text).toContain("declare module '@reflag/node-sdk' {");
    expect(text).toContain("declare module '@flagmount/core' {");
    expect(text).not.toContain('@openfeature');
    const openFeature = await cli(['types', '--url', mount.url, '--key', MANAGEMENT_KEY, '--openfeature'], tmp.dir);
    expect(openFeature.code, openFeature.stderr).toBe(0);
    // The same file, plus OpenFeature's key types after a blank line.
    expect(openFeature.stdout).toBe(
      `${text}\n` +
      [
        "declare module '@openfeature/core' {",
        '  export type BooleanFlagKey = "new-checkout";',
        '  export type StringFlagKey = never;',
        '  export type NumberFlagKey = never;',
        '  export type ObjectFlagKey = "banner";',
        '}',
        '',
      ].join('\n'),
    );
    const only = await cli(['types', '--url', mount.url, '--key', MANAGEMENT_KEY, '--only', 'flagmount'], tmp.dir);
    expect(only.stdout).not.toContain('@reflag/node-sdk');

    const written = await cli(['types', '--url', mount.url, '--key', MANAGEMENT_KEY, '--out', 'flags.d.ts'], tmp.dir);
    expect(written).toMatchObject({ code: 0, stdout: '', stderr: 'Wrote 2 flag types to flags.d.ts\n' });
    expect(readFileSync(join(tmp.dir, 'flags.d.ts'), 'utf8')).toBe(text);
  });

  it('type-checks: known keys compile, unknown or archived keys and wrong payload types fail (Reflag SDK, Flagmount and OpenFeature clients); so do the docs samples', async () => {
    expect((await cli(['types', '--url', mount.url, '--key', MANAGEMENT_KEY, '--openfeature', '--out', 'flags.d.ts'], tmp.dir)).code).toBe(0);
    writeFileSync(join(tmp.dir, 'good.ts'), GOOD);
    writeFileSync(join(tmp.dir, 'bad.ts'), BAD_HEADER + BAD_LINES.join('\n') + '\n');
    // The samples of docs/cli.md compile against the same generated file (they use the seeded flags).
    const samples = [...readFileSync(join(ROOT, 'docs/cli.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(samples.length).toBeGreaterThanOrEqual(2);
    samples.forEach((sample, i) => writeFileSync(join(tmp.dir, `doc-${i}.ts`), `${sample}\nexport {};\n`));
    writeFileSync(
      join(tmp.dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.base.json'),
        compilerOptions: {
          noEmit: true,
          declaration: false,
          lib: ['ES2023', 'DOM'],
          baseUrl: ROOT,
          typeRoots: [join(ROOT, 'node_modules/@types')],
          paths: {
            '@flagmount/core': ['packages/core/src/index.ts'],
            '@flagmount/engine': ['packages/engine/src/index.ts'],
            '@reflag/node-sdk': ['node_modules/@reflag/node-sdk'],
            '@openfeature/core': ['node_modules/@openfeature/core'],
            '@openfeature/server-sdk': ['node_modules/@openfeature/server-sdk'],
            '@openfeature/web-sdk': ['node_modules/@openfeature/web-sdk'],
            '@flagmount/storage-sqlite': ['packages/storage-sqlite/src/index.ts'],
            '@flagmount/storage-kysely': ['packages/storage-kysely/src/index.ts'],
          },
        },
        files: ['flags.d.ts', 'good.ts', 'bad.ts', ...samples.map((_, i) => `doc-${i}.ts`)],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', join(tmp.dir, 'tsconfig.json'), '--pretty', 'false']).catch(
      (error: { stdout: string }) => error,
    );
    const errors = result.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    const header = BAD_HEADER.split('\n').length - 1;
    const failing = [...new Set(errors.map((line) => /^(.*?)\((\d+),\d+\)/.exec(line)).map((m) => (m ? `${m[1]!.split('/').pop()}:${m[2]}` : 'unparsed')))];
    expect(failing, result.stdout).toEqual(BAD_LINES.map((_, i) => `bad.ts:${header + i + 1}`));
    expect(result.stdout).toMatch(/'"typo"' is not assignable/);
  }, 180_000);
});
