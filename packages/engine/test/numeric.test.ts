import { describe, expect, it } from 'vitest';
import { ctx, matches } from './helpers.js';

const gt = (value: unknown, bound: string) => matches(ctx('company.seats', 'GT', [bound]), { company: { seats: value } });
const lt = (value: unknown, bound: string) => matches(ctx('company.seats', 'LT', [bound]), { company: { seats: value } });

describe('GT / LT (JavaScript Number())', () => {
  it('compares numbers and numeric strings', () => {
    expect(gt(11, '10')).toBe(true);
    expect(gt('11', '10')).toBe(true);
    expect(gt(10, '10')).toBe(false);
    expect(lt(9.5, '10')).toBe(true);
    expect(lt('10', '10')).toBe(false);
  });

  it('parses the way Number() does: exponents, hex, padding, empty', () => {
    expect(gt('1e2', '99')).toBe(true);
    expect(gt('0x10', '15')).toBe(true);
    expect(gt(' 42 ', '41')).toBe(true);
    expect(lt('', '1')).toBe(true); // "" is 0
    expect(lt(null, '1')).toBe(true); // null flattens to "" → 0
  });

  it('is false when either side is not a number', () => {
    expect(gt('abc', '1')).toBe(false);
    expect(lt('abc', '1')).toBe(false);
    expect(gt(true, '0')).toBe(false); // "true" is NaN
    expect(gt(5, 'abc')).toBe(false);
    expect(lt(5, 'abc')).toBe(false);
  });

  it('handles infinities like JavaScript', () => {
    expect(gt('Infinity', '1e308')).toBe(true);
    expect(lt('-Infinity', '-1e308')).toBe(true);
  });
});
