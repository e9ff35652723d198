import * as crypto from 'node:crypto';
import type { Accessor } from '../context/flatten.js';
import { interned } from './intern.js';
import { BlockPrefix, NO_PREFIX, sha256FirstWord } from './sha256-block.js';

/**
 * Reflag's rollout hash: SHA-256 of the UTF-8 input, bytes 0–3 as a little-endian uint32, low 20 bits, scaled to
 * 0..100000 (inclusive: `k.3579681` hashes to 100000). Same arithmetic, in the same order, as the library's
 * `hashInt`, so that the floating-point rounding is the same too.
 */
export function rolloutHash(input: string): number {
  return rolloutHashOf(NO_PREFIX, input);
}

/** `rolloutHash(prefix + value)`, without building the string when it fits one SHA-256 block. */
function rolloutHashOf(prefix: BlockPrefix, value: string): number {
  const word = sha256FirstWord(prefix, value);
  return word === undefined ? scaled(first20Bits(prefix.text + value)) : bucketOfWord(word);
}

/** The rollout hash of a digest whose first four bytes are `word` (big-endian). */
export function bucketOfWord(word: number): number {
  return scaled((word >>> 24) | (((word >>> 16) & 0xff) << 8) | (((word >>> 8) & 0x0f) << 16));
}

const scaled = (bits: number): number => Math.floor((bits / 0xfffff) * 100000);

const LONE_SURROGATE_POSSIBLE = /[\uD800-\uDFFF]/;

// `crypto.hash` (Node ≥ 20.12) skips the Hash object, which halves the cost; the 'binary' (latin1) digest is a
// string whose char codes are the bytes, cheaper to produce than a Buffer.
const oneShot: ((input: string | Buffer) => string) | undefined =
  typeof crypto.hash === 'function' ? (input) => crypto.hash('sha256', input, 'binary') : undefined;

function digestLatin1(input: string | Buffer): string {
  return oneShot ? oneShot(input) : crypto.createHash('sha256').update(input).digest('binary');
}

function first20Bits(input: string): number {
  // The library hashes with js-sha256, whose UTF-8 encoder differs from Node's on lone surrogates (Node writes
  // U+FFFD, js-sha256 pairs the surrogate with whatever follows). Only such strings take the slow path.
  const digest = digestLatin1(LONE_SURROGATE_POSSIBLE.test(input) ? jsSha256Utf8(input) : input);
  return digest.charCodeAt(0) | (digest.charCodeAt(1) << 8) | ((digest.charCodeAt(2) & 0x0f) << 16);
}

/** The UTF-8 bytes js-sha256 0.11 hashes for a string, surrogate handling included. */
function jsSha256Utf8(input: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < input.length; i++) {
    let code = input.charCodeAt(i);
    if (code < 0x80) {
      bytes.push(code);
    } else if (code < 0x800) {
      bytes.push(0xc0 | (code >>> 6), 0x80 | (code & 0x3f));
    } else if (code < 0xd800 || code >= 0xe000) {
      bytes.push(0xe0 | (code >>> 12), 0x80 | ((code >>> 6) & 0x3f), 0x80 | (code & 0x3f));
    } else {
      code = 0x10000 + (((code & 0x3ff) << 10) | (input.charCodeAt(++i) & 0x3ff));
      bytes.push(
        0xf0 | (code >>> 18),
        0x80 | ((code >>> 12) & 0x3f),
        0x80 | ((code >>> 6) & 0x3f),
        0x80 | (code & 0x3f),
      );
    }
  }
  return Buffer.from(bytes);
}

/**
 * Hashes of the rollout filters being evaluated together (rollout-batch.ts): given the accessor a filter read its
 * value with, it may hash that value for every filter reading the same field at once, setting their `last`.
 */
export interface RolloutBatches {
  hashAll(read: Accessor, value: string): void;
}

let batches: RolloutBatches | null = null;

/** Makes `next` the batches asked on a miss (null: none), and returns the previous ones to restore. */
export function swapRolloutBatches(next: RolloutBatches | null): RolloutBatches | null {
  const previous = batches;
  batches = next;
  return previous;
}

/**
 * The rollout hash of `<prefix><value>` for one prefix (`<flag key>.`), remembering the last value: the same user
 * evaluated again (every check of an in-process client, a page's burst of requests) skips the hash, and a new user
 * costs one string comparison. A Map or LRU cache measured slower than hashing once users stop repeating
 * (bench/eval.ts), so there is none. One per prefix, shared by every filter hashing with it.
 */
export class RolloutHasher {
  lastValue: string | undefined = undefined;
  lastHash = 0;

  constructor(readonly prefix: BlockPrefix) {}

  /** `rolloutHash(prefix + value)`; `read` is how the caller got `value` (a batch hashes by field). */
  hash(value: string, read: Accessor): number {
    if (value !== this.lastValue) {
      batches?.hashAll(read, value);
      if (value !== this.lastValue) {
        this.lastHash = rolloutHashOf(this.prefix, value);
        this.lastValue = value;
      }
    }
    return this.lastHash;
  }
}

/** The hasher of `prefix`, shared: a batch that sets its `last` sets it for every filter using the prefix. */
export function rolloutHasher(prefix: string): RolloutHasher {
  return interned(`\u0001rollout:${prefix}`, () => new RolloutHasher(new BlockPrefix(prefix)));
}
