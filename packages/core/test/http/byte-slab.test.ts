import { describe, expect, it } from 'vitest';
import { ByteSlab } from '../../src/http/byte-slab.js';

const bound = (parts: Array<string | Buffer>) => parts.reduce((n, p) => n + (typeof p === 'string' ? p.length * 3 : p.length), 0);

describe('ByteSlab', () => {
  it('writes strings as UTF-8 and bytes as they are, in order', () => {
    const slab = new ByteSlab(1024);
    const parts = ['{"a":', Buffer.from('"é✓"'), ',"b":"\u2028😀"}'];
    const out = slab.write(parts, bound(parts));
    expect(out.toString('utf8')).toBe('{"a":"é✓","b":"\u2028😀"}');
    expect(out.length).toBe(Buffer.byteLength('{"a":"é✓","b":"\u2028😀"}'));
  });

  it('never hands out the same bytes twice, across slab boundaries', () => {
    const slab = new ByteSlab(256);
    const outs: Array<[Buffer, string]> = [];
    for (let i = 0; i < 200; i++) {
      const text = `item-${i}-`.repeat(1 + (i % 7));
      outs.push([slab.write([text], text.length * 3), text]);
    }
    for (const [out, text] of outs) expect(out.toString('utf8')).toBe(text);
  });

  it('gives a body larger than a quarter slab bytes of its own', () => {
    const slab = new ByteSlab(256);
    const small = slab.write(['before'], 18);
    const text = 'x'.repeat(1000);
    const big = slab.write([text], text.length);
    const after = slab.write(['after'], 15);
    expect(big.toString()).toBe(text);
    expect(big.buffer).not.toBe(small.buffer);
    expect(`${small.toString()} ${after.toString()}`).toBe('before after');
    expect(after.buffer).toBe(small.buffer);
  });

  it('writes an empty body', () => {
    expect(new ByteSlab(64).write([], 0).length).toBe(0);
  });
});
