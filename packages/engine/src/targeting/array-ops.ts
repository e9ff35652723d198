import { itemString } from '../context/flatten.js';
import { membership, type ArrayTest } from './operator.js';

/**
 * The runtime spec's rules for a field that holds an array (the library has none: it sees the field as missing).
 * Matching is on whole values and case-sensitive; items compare by the library's scalar rule (`itemString`).
 */

function includes(items: readonly unknown[], expected: string): boolean {
  for (let i = 0; i < items.length; i++) if (itemString(items[i]) === expected) return true;
  return false;
}

/** IS: exactly one item, equal to the value. */
export function isArray(values: readonly string[]): ArrayTest {
  const expected = values[0];
  return (items) => items.length === 1 && itemString(items[0]) === expected;
}

/** IS_NOT: more than one item, no item, or the only item differs. */
export function isNotArray(values: readonly string[]): ArrayTest {
  const test = isArray(values);
  return (items) => !test(items);
}

export function containsArray(values: readonly string[]): ArrayTest {
  const expected = values[0];
  if (typeof expected !== 'string') return () => false;
  return (items) => includes(items, expected);
}

export function notContainsArray(values: readonly string[]): ArrayTest {
  const test = containsArray(values);
  return (items) => !test(items);
}

/** ANY_OF: at least one listed value is an item. */
export function anyOfArray(values: readonly string[]): ArrayTest {
  const listed = membership(values);
  return (items) => {
    for (let i = 0; i < items.length; i++) if (listed(itemString(items[i]))) return true;
    return false;
  };
}

export function notAnyOfArray(values: readonly string[]): ArrayTest {
  const test = anyOfArray(values);
  return (items) => !test(items);
}
