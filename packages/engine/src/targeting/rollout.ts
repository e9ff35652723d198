import * as crypto from 'node:crypto';
import { MISSING } from '../context/flatten.js';
import { sharedAccessor } from './intern.js';
import type { RolloutPercentageFilter } from '../schema/filter.js';
import { reportArrayOperator, reportMissing, type CompiledFilter } from './scope.js';
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
  const bits =
    word === undefined
      ? first20Bits(prefix.text + value)
      : (word >>> 24) | (((word >>> 16) & 0xff) << 8) | (((word >>> 8) & 0x0f) << 16);
  return Math.floor((bits / 0xfffff) * 100000);
}

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

const OPERATOR = 'rolloutPercentage';

/** Match iff `rolloutHash(key + "." + value) < threshold`; `key` defaults to the flag's key. */
export function compileRolloutFilter(filter: RolloutPercentageFilter, flagKey: string): CompiledFilter {
  const attribute = filter.partialRolloutAttribute;
  const prefix = new BlockPrefix(`${filter.key ?? flagKey}.`);
  const threshold = filter.partialRolloutThreshold;
  const read = sharedAccessor(String(attribute));
  // The hash is within 0..100000, so these thresholds decide without hashing; a missing field is still reported.
  const decided = typeof threshold !== 'number' ? null : threshold <= 0 ? false : threshold > 100000 ? true : null;

  // One-entry memo: the same user evaluated again (every check of an in-process client, a page's burst of
  // requests) skips the hash, and a new user costs one string comparison. A Map or LRU cache measured slower
  // than hashing once users stop repeating (bench/eval.ts), so there is none.
  let lastValue: string | undefined;
  let lastResult = false;
  const test = (value: string): boolean => {
    if (value !== lastValue) {
      lastResult = rolloutHashOf(prefix, value) < threshold;
      lastValue = value;
    }
    return lastResult;
  };

  return (scope) => {
    const value = read(scope.context);
    if (typeof value === 'string') return decided ?? test(value);
    if (value === MISSING) return reportMissing(scope, attribute, OPERATOR);
    // The spec gives no rollout over an array; like any operator that does not work with arrays, it fails.
    return reportArrayOperator(scope, attribute, OPERATOR);
  };
}
