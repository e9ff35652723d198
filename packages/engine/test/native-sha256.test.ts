import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { compileSnapshot, rolloutHash, rolloutHashImplementation } from '../src/index.js';
import { loadNativeSha256 } from '../src/targeting/native-sha256.js';
import { ONE_BLOCK_MAX, sha256FirstWord, useNativeSha256 } from '../src/targeting/sha256-block.js';

const reference = (text: string) => (hash('sha256', text, 'buffer') as unknown as Buffer).readInt32BE(0);
const native = loadNativeSha256();

function cpuHasShaNi(): boolean {
  if (process.platform !== 'linux' || process.arch !== 'x64') return false;
  return /^flags\s*:.*\bsha_ni\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));
}

/** Runs `run` on each compression path available here: SHA-NI (when it loads) and JavaScript. */
function eachPath<T>(run: () => T): { 'sha-ni'?: T; js: T } {
  try {
    useNativeSha256(null);
    const js = run();
    if (native === null) return { js };
    useNativeSha256(native);
    return { 'sha-ni': run(), js };
  } finally {
    useNativeSha256(native);
  }
}

describe('the SHA-NI rollout hash', () => {
  afterEach(() => useNativeSha256(native));

  it('is active on x86-64 Linux with sha_ni, so a broken native build fails CI', (context) => {
    if (process.env.FLAGMOUNT_NATIVE_HASH === '0') context.skip('FLAGMOUNT_NATIVE_HASH=0 turns it off');
    if (!cpuHasShaNi()) context.skip('not x86-64 Linux with sha_ni in /proc/cpuinfo: the JS path is expected');
    expect(rolloutHashImplementation()).toBe('sha-ni');
  });

  it('reports the path it takes', () => {
    useNativeSha256(null);
    expect(rolloutHashImplementation()).toBe('js');
    useNativeSha256(native);
    expect(rolloutHashImplementation()).toBe(native === null ? 'js' : 'sha-ni');
  });

  it('is off with FLAGMOUNT_NATIVE_HASH=0', () => {
    const saved = process.env.FLAGMOUNT_NATIVE_HASH;
    process.env.FLAGMOUNT_NATIVE_HASH = '0';
    try {
      expect(loadNativeSha256()).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.FLAGMOUNT_NATIVE_HASH;
      else process.env.FLAGMOUNT_NATIVE_HASH = saved;
    }
  });

  it('gives Node’s first word on both paths, for every one-block length and split point', () => {
    const results = eachPath(() => {
      for (let length = 0; length <= ONE_BLOCK_MAX; length++) {
        const text = Array.from({ length }, (_, i) => String.fromCharCode(1 + ((i * 53 + length) % 127))).join('');
        for (let split = 0; split <= length; split++) {
          expect(sha256FirstWord(text.slice(0, split), text.slice(split)), `${length}/${split}`).toBe(reference(text));
        }
      }
      return rolloutHashImplementation();
    });
    expect(results).toEqual(native === null ? { js: 'js' } : { 'sha-ni': 'sha-ni', js: 'js' });
  });

  it('gives the same rollout hashes on both paths, ASCII or not, one block or longer', () => {
    const text = fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 70 }), fc.string({ unit: 'binary', maxLength: 70 }));
    const inputs = fc.sample(text, { numRuns: 3000, seed: 20261124 });
    inputs.push(...Array.from({ length: 2000 }, (_, i) => `new-checkout.user-${Math.imul(i + 1, 2654435761) >>> 0}`));
    const results = eachPath(() => inputs.map(rolloutHash));
    if (results['sha-ni'] !== undefined) expect(results['sha-ni']).toEqual(results.js);
  });

  it('makes the same rollout decisions on both paths for compiled flags', () => {
    const flags = ['a', 'new-checkout', 'k'].map((key, i) => ({
      key,
      targetingVersion: 1,
      rules: [
        {
          filter: {
            type: 'rolloutPercentage' as const,
            partialRolloutAttribute: 'user.id',
            partialRolloutThreshold: 25_000 * (i + 1),
          },
        },
      ],
    }));
    const users = Array.from({ length: 3000 }, (_, i) => `u${i}-${(i * 7919) % 10007}`);
    const results = eachPath(() => {
      // Each rollout prefix remembers its last input, across compiled snapshots too: the users differ one to the
      // next, so every evaluation hashes (through the batches on the SHA-NI path).
      // Compiled per path: a snapshot makes its batches with the path in force at its first all-flags call.
      const snapshot = compileSnapshot({ flagStateVersion: 1, flags });
      return users.map((id) => {
        const all = snapshot.evaluateAll({ user: { id } });
        return flags.map((flag) => (all[flag.key]!.isEnabled ? 1 : 0)).join('');
      });
    });
    if (results['sha-ni'] !== undefined) expect(results['sha-ni']).toEqual(results.js);
    expect(results.js.filter((bits) => bits.startsWith('1')).length).toBeGreaterThan(600);
  });
});
