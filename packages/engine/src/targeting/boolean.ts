import type { ScalarTest } from './operator.js';

/** Booleans flatten to "true"/"false"; so does the string "true", and nothing else matches. */
export const isTrue = (): ScalarTest => (value) => value === 'true';
export const isFalse = (): ScalarTest => (value) => value === 'false';
