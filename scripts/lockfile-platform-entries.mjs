// The registry mirror this project is built against serves only the linux packages of rollup and turbo, so
// `npm install` leaves their other platforms' optional packages out of package-lock.json, and `npm ci` then refuses
// the lockfile as out of sync. This adds those entries back with the os/cpu/libc fields npm uses to skip them, as a
// lockfile written against the public registry would have. Run it after any `npm install` that rewrites a lockfile:
// it fixes all three: the root's, the bench's and the build tools' (packages of their own, outside the workspaces).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const OS = { aix: 'aix', android: 'android', netbsd: 'netbsd', sunos: 'sunos', darwin: 'darwin', freebsd: 'freebsd', linux: 'linux', openbsd: 'openbsd',
  openharmony: 'openharmony', win32: 'win32', windows: 'win32' };
const CPU = { arm: 'arm', mips64el: 'mips64el', arm64: 'arm64', x64: 'x64', 64: 'x64', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64',
  riscv64: 'riscv64', s390x: 's390x' };

function addPlatformEntries(path) {
  const lock = JSON.parse(readFileSync(path, 'utf8'));
  const packages = lock.packages;
  let added = 0;
  for (const [location, entry] of Object.entries(packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      if (`${location}/node_modules/${dep}` in packages || `node_modules/${dep}` in packages) continue;
      const parts = dep.split('/').pop().split('-');
      const osIndex = parts.findIndex((part) => part in OS);
      if (osIndex < 0 || !(parts[osIndex + 1] in CPU)) throw new Error(`cannot tell the platform of ${dep}`);
      const os = OS[parts[osIndex]];
      const stub = { version, cpu: [CPU[parts[osIndex + 1]]], dev: entry.dev, optional: true, os: [os] };
      if (stub.dev === undefined) delete stub.dev;
      if (os === 'linux') stub.libc = [dep.includes('musl') ? 'musl' : 'glibc'];
      packages[`node_modules/${dep}`] = stub;
      added++;
    }
  }
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  return added;
}

for (const file of ['../package-lock.json', '../bench/package-lock.json', '../tools/build/package-lock.json']) {
  const path = new URL(file, import.meta.url);
  if (!existsSync(path)) continue;
  process.stdout.write(`${file.slice(3)}: added ${addPlatformEntries(path)} platform entries\n`);
}
