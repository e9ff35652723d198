/**
 * The first 32-bit word of SHA-256 for a message of at most 55 ASCII bytes (one block), computed in JavaScript.
 *
 * Why not `crypto.hash`: rollout inputs are short (`flagKey.userId`), and for those Node's call overhead (encoding
 * the string, an OpenSSL context, a digest string) costs more than the compression itself; this measured about
 * 25 % faster per hash (bench/eval.ts) and allocates nothing. Longer or non-ASCII input goes to `crypto.hash`,
 * and a test checks this against it on random inputs of every length.
 *
 * Where the CPU has SHA-NI and the optional `@flagmount/sha256-native` addon built, the compression runs there
 * instead (native-sha256.ts): one N-API call on the block `loadBlock` filled. That made `sha256FirstWord` about
 * twice as fast, `loadBlock` included (about 180 ns against 400 ns on the bench machine).
 */

import { loadNativeSha256, type Sha256Native } from './native-sha256.js';

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** Longest message that fits one block with its padding and length. */
export const ONE_BLOCK_MAX = 55;

/** The message schedule, reused: evaluation is synchronous, so one buffer serves every call. */
const W = new Int32Array(64);

/**
 * A message prefix laid out once as the start of a block: a rollout filter hashes `<flag key>.<value>` with a fixed
 * prefix, so each hash copies these words and packs only the value after them.
 */
export class BlockPrefix {
  readonly words = new Int32Array(16);
  readonly length: number;
  /** False when the prefix is not ASCII or leaves no room: every hash with it takes the caller's other path. */
  readonly usable: boolean;

  constructor(readonly text: string) {
    this.length = text.length;
    let usable = text.length <= ONE_BLOCK_MAX;
    for (let i = 0; usable && i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) usable = false;
      else this.words[i >> 2]! |= c << (24 - ((i & 3) << 3));
    }
    this.usable = usable;
  }
}

export const NO_PREFIX = new BlockPrefix('');

/**
 * Lays out `prefix + value` as big-endian words and pads it. Returns false when the text is not ASCII or too long,
 * leaving the caller to hash it another way. Each word is written once, from a local (measured faster than
 * or-ing every byte into the typed array).
 */
function loadBlock(prefix: BlockPrefix, value: string): boolean {
  let i = prefix.length;
  const n = i + value.length;
  if (n > ONE_BLOCK_MAX || !prefix.usable) return false;
  const words = prefix.words;
  for (let k = 0; k < 16; k++) W[k] = words[k]!;
  // The prefix's last word may be partial: carry on filling it.
  let word = W[i >> 2]!;
  for (let j = 0; j < value.length; j++, i++) {
    const c = value.charCodeAt(j);
    if (c > 0x7f) return false;
    word |= c << (24 - ((i & 3) << 3));
    if ((i & 3) === 3) {
      W[i >> 2] = word;
      word = 0;
    }
  }
  W[i >> 2] = word | (0x80 << (24 - ((i & 3) << 3)));
  W[15] = n << 3;
  return true;
}

/** The first word of the digest of the loaded block (the other seven are never needed). */
function compressFirstWord(): number {
  for (let t = 16; t < 64; t++) {
    const x = W[t - 15]!;
    const y = W[t - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
  }
  let a = 0x6a09e667 | 0;
  let b = 0xbb67ae85 | 0;
  let c = 0x3c6ef372 | 0;
  let d = 0xa54ff53a | 0;
  let e = 0x510e527f | 0;
  let f = 0x9b05688c | 0;
  let g = 0x1f83d9ab | 0;
  let h = 0x5be0cd19 | 0;
  // Four rounds per iteration, with the roles of the eight registers rotated by hand instead of moved: V8 keeps
  // them in registers, which the one-round loop with eight moves per round did not (measured 25 % slower).
  for (let t = 0; t < 64; t += 4) {
    h = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t]! + W[t]!) | 0;
    d = (d + h) | 0;
    h = (h + (((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
    g = (g + (((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) + (f ^ (d & (e ^ f))) + K[t + 1]! + W[t + 1]!) | 0;
    c = (c + g) | 0;
    g = (g + (((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) + ((h & a) | (b & (h | a)))) | 0;
    f = (f + (((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) + (e ^ (c & (d ^ e))) + K[t + 2]! + W[t + 2]!) | 0;
    b = (b + f) | 0;
    f = (f + (((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) + ((g & h) | (a & (g | h)))) | 0;
    e = (e + (((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) + (d ^ (b & (c ^ d))) + K[t + 3]! + W[t + 3]!) | 0;
    a = (a + e) | 0;
    e = (e + (((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) + ((f & g) | (h & (f | g)))) | 0;
    // After four rounds the registers hold (e, f, g, h, a, b, c, d): swap the halves back.
    const ta = a;
    const tb = b;
    const tc = c;
    const td = d;
    a = e;
    b = f;
    c = g;
    d = h;
    e = ta;
    f = tb;
    g = tc;
    h = td;
  }
  return (a + 0x6a09e667) | 0;
}

/** The addon's compression of `W`, or null for the JS path. */
let nativeFirstWord: (() => number) | null = null;
/** The addon, for batches (rollout-batch.ts); null on the JS path. */
let nativeAddon: Sha256Native | null = null;

/**
 * Switches the compression to `addon` (attached to `W`), or to JavaScript with null. Module init calls it with
 * whatever loads; tests call it to compare both paths. Not exported from the package.
 */
export function useNativeSha256(addon: Sha256Native | null): void {
  nativeAddon = addon;
  nativeFirstWord = addon === null ? null : addon.attach(W);
}

/**
 * The addon's batch hash over these arrays (see `Sha256Native.attachBatch`), or null on the JS path or with an
 * addon built before batches existed. Batches made earlier keep the compression they were made with.
 */
export function attachNativeBatch(prefixes: Uint8Array, value: Uint8Array, out: Int32Array): ((valueLength: number) => void) | null {
  return typeof nativeAddon?.attachBatch === 'function' ? nativeAddon.attachBatch(prefixes, value, out) : null;
}

useNativeSha256(loadNativeSha256());

/** Which compression `sha256FirstWord` runs: SHA-NI through the addon, or JavaScript. */
export function rolloutHashImplementation(): 'sha-ni' | 'js' {
  return nativeFirstWord === null ? 'js' : 'sha-ni';
}

/**
 * The digest's first four bytes as a big-endian int32, or `undefined` when `prefix + value` is not ASCII or
 * longer than one block.
 */
export function sha256FirstWord(prefix: string | BlockPrefix, value: string): number | undefined {
  const laidOut = typeof prefix === 'string' ? (prefix === '' ? NO_PREFIX : new BlockPrefix(prefix)) : prefix;
  if (!loadBlock(laidOut, value)) return undefined;
  return nativeFirstWord === null ? compressFirstWord() : nativeFirstWord();
}
