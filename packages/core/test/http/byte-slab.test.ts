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

  it('reuses the bytes of the latest slice once it is released, and of no other', () => {
    const slab = new ByteSlab(1024);
    const first = slab.write(['first'], 15);
    const second = slab.write(['second'], 18);
    slab.release(first);
    const third = slab.write(['third!'], 18);
    expect(third.byteOffset).toBeGreaterThan(second.byteOffset);
    expect(`${first.toString()} ${second.toString()}`).toBe('first second');
    slab.release(third);
    const fourth = slab.write(['fourth'], 18);
    expect(fourth.byteOffset).toBe(third.byteOffset);
    expect(fourth.toString()).toBe('fourth');
    // Released twice, or after a later slice: nothing is taken back.
    slab.release(third);
    slab.release(fourth);
    slab.release(fourth);
    const fifth = slab.write(['fifth'], 15);
    const sixth = slab.write(['sixth'], 15);
    expect(sixth.byteOffset).toBeGreaterThan(fifth.byteOffset);
    expect(`${second.toString()} ${fifth.toString()} ${sixth.toString()}`).toBe('second fifth sixth');
  });

  it('with a sent check, reuses the bytes only if the next write finds them sent, asking once', () => {
    const slab = new ByteSlab(1024);
    let asked = 0;
    const check = (answer: boolean) => () => {
      asked++;
      return answer;
    };
    const first = slab.write(['first'], 15);
    slab.release(first, check(false));
    const second = slab.write(['second'], 18);
    expect(asked).toBe(1);
    expect(second.byteOffset).toBeGreaterThan(first.byteOffset);
    expect(first.toString()).toBe('first');
    slab.release(second, check(true));
    expect(asked).toBe(1);
    const third = slab.write(['third!'], 18);
    expect(asked).toBe(2);
    expect(third.byteOffset).toBe(second.byteOffset);
    // Asked once: the next write neither asks again nor takes back the reused bytes.
    const fourth = slab.write(['fourth'], 18);
    expect(asked).toBe(2);
    expect(fourth.byteOffset).toBeGreaterThan(third.byteOffset);
    expect(`${first.toString()} ${third.toString()} ${fourth.toString()}`).toBe('first third! fourth');
  });

  it('ignores a sent check for a slice that is not the latest', () => {
    const slab = new ByteSlab(1024);
    const first = slab.write(['first'], 15);
    const second = slab.write(['second'], 18);
    let asked = 0;
    slab.release(first, () => ++asked > 0);
    const third = slab.write(['third'], 15);
    expect(asked).toBe(0);
    expect(third.byteOffset).toBeGreaterThan(second.byteOffset);
  });

  it('ignores the release of a slice from an earlier slab or of a body with bytes of its own', () => {
    const slab = new ByteSlab(256);
    const old = slab.write(['x'.repeat(10)], 30);
    const written: Buffer[] = [];
    let fresh: Buffer;
    do written.push((fresh = slab.write(['y'.repeat(20)], 60)));
    while (fresh.buffer === old.buffer);
    slab.release(old);
    const big = slab.write(['b'.repeat(100)], 100);
    expect(big.buffer).not.toBe(fresh.buffer);
    slab.release(big);
    const after = slab.write(['after'], 15);
    expect(after.buffer).toBe(fresh.buffer);
    expect(after.byteOffset).toBeGreaterThan(fresh.byteOffset);
    expect(old.toString()).toBe('x'.repeat(10));
    for (const b of written) expect(b.toString()).toBe('y'.repeat(20));
    expect(`${big.toString()} ${after.toString()}`).toBe(`${'b'.repeat(100)} after`);
  });
});
