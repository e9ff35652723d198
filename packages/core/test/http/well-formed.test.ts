import { describe, expect, it } from 'vitest';
import { wellFormed } from '../../src/http/well-formed.js';

describe('wellFormed', () => {
  it('replaces lone surrogates in strings and member names, at any depth', () => {
    const value = JSON.parse('{"a\\ud800":["x\\udc00",{"b":"\\ud83d"}],"ok":"\\ud83d\\ude00","n":1,"t":true,"z":null}');
    expect(wellFormed(value)).toEqual({ 'a\ufffd': ['x\ufffd', { b: '\ufffd' }], ok: '😀', n: 1, t: true, z: null });
  });

  it('answers the very value when nothing needs a change', () => {
    const value = { a: ['x', { b: '😀' }], c: 1 };
    expect(wellFormed(value)).toBe(value);
  });

  it('leaves the value it was given as it was (a host parser may hold it)', () => {
    const inner = { b: '\ud800' };
    const value = { a: [inner], keep: { c: 'fine' } };
    const fixed = wellFormed(value) as { a: Array<{ b: string }>; keep: object };
    expect(inner.b).toBe('\ud800');
    expect(fixed.a[0]!.b).toBe('\ufffd');
    expect(fixed.keep).toBe(value.keep);
  });

  it('keeps a member named __proto__ a member', () => {
    const fixed = wellFormed(JSON.parse('{"__proto__":{"x":"\\ud800"},"y":"\\udfff"}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(fixed)).toBe(Object.prototype);
    expect(Object.keys(fixed)).toEqual(['__proto__', 'y']);
    expect(Object.getOwnPropertyDescriptor(fixed, '__proto__')!.value).toEqual({ x: '\ufffd' });
  });
});
