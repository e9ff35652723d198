import { hash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ONE_BLOCK_MAX, sha256FirstWord } from '../src/targeting/sha256-block.js';

const reference = (text: string) => (hash('sha256', text, 'buffer') as unknown as Buffer).readInt32BE(0);

describe('sha256FirstWord', () => {
  it('equals the first word of Node’s SHA-256 for every one-block length and every split point', () => {
    for (let length = 0; length <= ONE_BLOCK_MAX; length++) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 37 + length) % 95))).join('');
      for (let split = 0; split <= length; split++) {
        expect(sha256FirstWord(text.slice(0, split), text.slice(split)), `${length}/${split}`).toBe(reference(text));
      }
    }
  });

  it('equals Node’s SHA-256 on random ASCII prefix/value pairs, and declines what is not one ASCII block', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), (prefix, value) => {
        const text = prefix + value;
        const ascii = /^[\x00-\x7f]*$/.test(text);
        const word = sha256FirstWord(prefix, value);
        if (ascii && text.length <= ONE_BLOCK_MAX) expect(word).toBe(reference(text));
        else expect(word).toBeUndefined();
      }),
      { numRuns: 5000, seed: 20261123 },
    );
  });

  it('includes the full 0x00–0x7f range (NUL and DEL are plain bytes)', () => {
    expect(sha256FirstWord('\u0000', '\u007f')).toBe(reference('\u0000\u007f'));
  });
});
