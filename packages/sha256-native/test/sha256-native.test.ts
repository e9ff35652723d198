import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it, type TestContext } from 'vitest';
import type * as Loader from '../index.js';

// Through Node's own require, as the engine loads it, not through Vite's transform.
const { load } = createRequire(import.meta.url)('../index.js') as typeof Loader;

const reference = (text: string) => createHash('sha256').update(text, 'latin1').digest().readInt32BE(0);

/** One padded SHA-256 block as big-endian words, written into `words` (the layout the engine's loadBlock makes). */
function fill(words: Int32Array, text: string): void {
  const bytes = Buffer.alloc(64);
  bytes.write(text, 'latin1');
  bytes[text.length] = 0x80;
  bytes.writeUInt32BE(text.length * 8, 60);
  for (let i = 0; i < 16; i++) words[i] = bytes.readInt32BE(4 * i);
}

function cpuHasShaNi(): boolean {
  if (process.platform !== 'linux' || process.arch !== 'x64') return false;
  return /^flags\s*:.*\bsha_ni\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));
}

function withEnv<T>(value: string | undefined, run: () => T): T {
  const saved = process.env.FLAGMOUNT_NATIVE_HASH;
  if (value === undefined) delete process.env.FLAGMOUNT_NATIVE_HASH;
  else process.env.FLAGMOUNT_NATIVE_HASH = value;
  try {
    return run();
  } finally {
    if (saved === undefined) delete process.env.FLAGMOUNT_NATIVE_HASH;
    else process.env.FLAGMOUNT_NATIVE_HASH = saved;
  }
}

const native = withEnv(undefined, load);

function nativeOrSkip(context: TestContext): NonNullable<typeof native> {
  if (native === null) return context.skip('addon not built, or no SHA-NI on this CPU: the engine hashes in JS');
  return native;
}

describe('@flagmount/sha256-native', () => {
  it('loads on x86-64 Linux with sha_ni, so a broken native build fails here rather than going unnoticed', (context) => {
    if (!cpuHasShaNi()) context.skip('not x86-64 Linux with sha_ni in /proc/cpuinfo');
    expect(native).not.toBeNull();
    expect(native!.accelerated).toBe(true);
  });

  it('gives null with FLAGMOUNT_NATIVE_HASH=0, and only for "0"', (context) => {
    expect(withEnv('0', load)).toBeNull();
    nativeOrSkip(context);
    expect(withEnv('1', load)).not.toBeNull();
    expect(withEnv('', load)).not.toBeNull();
  });

  it('equals Node’s SHA-256 first word for every one-block length, re-reading the attached block on each call', (context) => {
    const words = new Int32Array(64);
    const firstWord = nativeOrSkip(context).attach(words);
    for (let length = 0; length <= 55; length++) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 37 + length) % 95))).join('');
      fill(words, text);
      expect(firstWord(), `length ${length}`).toBe(reference(text));
    }
  });

  it('equals Node’s SHA-256 on random ASCII input', (context) => {
    const words = new Int32Array(16);
    const firstWord = nativeOrSkip(context).attach(words);
    fc.assert(
      fc.property(fc.string({ maxLength: 55 }), (text) => {
        fill(words, text);
        expect(firstWord()).toBe(reference(text));
      }),
      { numRuns: 5000, seed: 20261124 },
    );
  });

  it('keeps each attached block apart (two engine copies in one process share the addon)', (context) => {
    const addon = nativeOrSkip(context);
    const a = new Int32Array(16);
    const b = new Int32Array(new ArrayBuffer(128), 32, 16);
    const firstWordA = addon.attach(a);
    const firstWordB = addon.attach(b);
    fill(a, 'flag.user-a');
    fill(b, 'flag.user-b');
    expect(firstWordA()).toBe(reference('flag.user-a'));
    expect(firstWordB()).toBe(reference('flag.user-b'));
  });

  it('refuses anything but an Int32Array of 16 words or more', (context) => {
    const addon = nativeOrSkip(context);
    const attach = addon.attach as (block: unknown) => () => number;
    for (const bad of [undefined, {}, new Int32Array(15), new Uint32Array(16), new Float64Array(16), Buffer.alloc(64)]) {
      expect(() => attach(bad)).toThrow(TypeError);
    }
  });

  describe('attachBatch', () => {
    /** A batch over these prefixes, and a way to hash one ASCII value with all of them. */
    function batchOf(addon: NonNullable<typeof native>, prefixes: string[]) {
      const slots = new Uint8Array(prefixes.length * 64);
      prefixes.forEach((prefix, i) => {
        slots.set(Buffer.from(prefix, 'latin1'), i * 64);
        slots[i * 64 + 63] = prefix.length;
      });
      const value = new Uint8Array(64);
      const out = new Int32Array(prefixes.length);
      const firstWords = addon.attachBatch!(slots, value, out);
      return (text: string) => {
        value.set(Buffer.from(text, 'latin1'));
        firstWords(text.length);
        return [...out];
      };
    }

    it('hashes every prefix with the value, any count of prefixes, 0 where the two pass one block', (context) => {
      const addon = nativeOrSkip(context);
      for (let count = 1; count <= 9; count++) {
        const prefixes = Array.from({ length: count }, (_, i) => `${'k'.repeat(i * 7)}.`);
        const hashAll = batchOf(addon, prefixes);
        for (const value of ['', 'user-1', 'u'.repeat(40), 'v'.repeat(55)]) {
          const expected = prefixes.map((prefix) => (prefix.length + value.length <= 55 ? reference(prefix + value) : 0));
          expect(hashAll(value), `${count} prefixes, value of ${value.length}`).toEqual(expected);
        }
      }
    });

    it('equals Node’s SHA-256 on random ASCII prefixes and values', (context) => {
      const addon = nativeOrSkip(context);
      fc.assert(
        fc.property(fc.array(fc.string({ maxLength: 55 }), { minLength: 1, maxLength: 12 }), fc.string({ maxLength: 55 }), (prefixes, value) => {
          const expected = prefixes.map((prefix) => (prefix.length + value.length <= 55 ? reference(prefix + value) : 0));
          expect(batchOf(addon, prefixes)(value)).toEqual(expected);
        }),
        { numRuns: 500, seed: 20261124 },
      );
    });

    it('refuses arrays of the wrong type or size, and a value length past one block', (context) => {
      const addon = nativeOrSkip(context);
      const attachBatch = addon.attachBatch as unknown as (...args: unknown[]) => (length: number) => void;
      const ok = [new Uint8Array(128), new Uint8Array(64), new Int32Array(2)];
      expect(() => attachBatch(...ok)).not.toThrow();
      for (const bad of [
        [new Uint8Array(127), ok[1], ok[2]],
        [ok[0], new Uint8Array(54), ok[2]],
        [ok[0], ok[1], new Uint32Array(2)],
        [new Int8Array(128), ok[1], ok[2]],
        [ok[0], ok[1]],
      ]) {
        expect(() => attachBatch(...bad)).toThrow(TypeError);
      }
      const firstWords = attachBatch(...ok);
      for (const length of [-1, 56, Number.NaN]) expect(() => firstWords(length)).toThrow(RangeError);
      expect(() => (firstWords as () => void)()).toThrow(RangeError);
    });
  });
});

