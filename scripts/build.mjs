// `npm run build`: turbo runs each package's `tsup` in dependency order. Both live in tools/build (installed here
// on first use), so their bin directory goes first on the PATH that turbo hands to each package's build script.
import { spawnSync } from 'node:child_process';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled } from './ensure-installed.mjs';

ensureInstalled('tools/build', 'the build tools (turbo, tsup)');
const bin = fileURLToPath(new URL('../tools/build/node_modules/.bin', import.meta.url));
const windows = process.platform === 'win32';
const result = spawnSync(windows ? 'turbo.cmd' : 'turbo', ['run', 'build', ...process.argv.slice(2)], {
  stdio: 'inherit',
  shell: windows,
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
});
process.exitCode = result.status ?? 1;
