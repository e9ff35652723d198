import { membership, type ScalarTest } from './operator.js';

/**
 * Equality and substring operators on the library's flat string value. IS/IS_NOT compare with the first value
 * only; CONTAINS is a case-insensitive substring test on strings (the array form, in array-ops.ts, is exact).
 */

export function is(values: readonly string[]): ScalarTest {
  const expected = values[0];
  return (value) => value === expected;
}

export function isNot(values: readonly string[]): ScalarTest {
  const expected = values[0];
  return (value) => value !== expected;
}

export function contains(values: readonly string[]): ScalarTest {
  const needle = values[0];
  // The library throws on a CONTAINS without a value; nothing can contain "no value".
  if (typeof needle !== 'string') return () => false;
  const lower = needle.toLowerCase();
  return (value) => value.toLowerCase().includes(lower);
}

export function notContains(values: readonly string[]): ScalarTest {
  const test = contains(values);
  return (value) => !test(value);
}

export function anyOf(values: readonly string[]): ScalarTest {
  return membership(values);
}

export function notAnyOf(values: readonly string[]): ScalarTest {
  const test = membership(values);
  return (value) => !test(value);
}
