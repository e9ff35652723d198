import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// `npm ci` (what CI runs) refuses a lockfile that lacks an entry for any optional dependency, even one for another
// platform; `npm install` against a mirror that serves only linux builds drops those entries silently. Catch that
// here, before CI does: `node scripts/lockfile-platform-entries.mjs` puts them back.
// Every lockfile: the root's, and those of bench/ and tools/build/ (packages of their own, installed on first use).
describe.each(['package-lock.json', 'bench/package-lock.json', 'tools/build/package-lock.json'])('%s', (file) => {
  const lock = JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as {
    packages: Record<string, { optionalDependencies?: Record<string, string>; link?: boolean; resolved?: string }>;
  };

  it('has an entry for every optional dependency, on every platform', () => {
    const missing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = `${location}/node_modules/${dep}`;
        if (!(nested in lock.packages) && !(`node_modules/${dep}` in lock.packages)) missing.push(dep);
      }
    }
    expect(missing).toEqual([]);
  });

  // The root's `overrides` put test/support/absent-sdk-backend in place of @reflag/node-sdk's S3, GCS and Redis
  // backends. When npm resolves such a file: override afresh it can write the link relative to the SDK's folder
  // (npm/cli#5584), and `npm ci` then links to a folder that does not exist: every link must point into the repo.
  it('links only to folders that exist in the repository', () => {
    const broken = Object.entries(lock.packages)
      .filter(([, entry]) => entry.link)
      .filter(([, entry]) => !existsSync(new URL(`../../${file.replace(/[^/]*$/, '')}${entry.resolved}/package.json`, import.meta.url)))
      .map(([location, entry]) => `${location} -> ${entry.resolved}`);
    expect(broken).toEqual([]);
  });
});
