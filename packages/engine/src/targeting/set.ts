import type { ArrayTest, ScalarTest } from './operator.js';

/** SET/NOT_SET: a flat value is set when not `""`; `null`, `{}` and a missing field all read as `""`. */
export const set = (): ScalarTest => (value) => value !== '';
export const notSet = (): ScalarTest => (value) => value === '';

/** Spec: SET matches arrays with at least one item, NOT_SET empty arrays. */
export const setArray = (): ArrayTest => (items) => items.length > 0;
export const notSetArray = (): ArrayTest => (items) => items.length === 0;
