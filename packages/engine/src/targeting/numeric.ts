import type { ScalarTest } from './operator.js';

/**
 * GT/LT with JavaScript `Number()`, as the library: `""` is 0, `"1e2"`, `"0x10"` and padded numbers parse, and a
 * side that is NaN makes the comparison false (the library also logs it; we stay silent).
 */

function compare(values: readonly string[], greater: boolean): ScalarTest {
  const bound = Number(values[0]);
  if (Number.isNaN(bound)) return () => false;
  // A NaN field fails both comparisons by itself.
  return greater ? (value) => Number(value) > bound : (value) => Number(value) < bound;
}

export const gt = (values: readonly string[]): ScalarTest => compare(values, true);
export const lt = (values: readonly string[]): ScalarTest => compare(values, false);
