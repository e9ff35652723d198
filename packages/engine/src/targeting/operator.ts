/**
 * How every operator family plugs into a context filter. Values are read once, at compile time; what is left
 * per evaluation is the comparison itself.
 */

/** Compares the library's flat string value of a field. */
export type ScalarTest = (value: string) => boolean;
/** Compares an array attribute by the runtime spec's array rules. */
export type ArrayTest = (items: readonly unknown[]) => boolean;

export interface OperatorFamily {
  scalar(values: readonly string[]): ScalarTest;
  /** Null when the spec says the operator does not work with arrays (UNSUPPORTED_ARRAY_OPERATOR). */
  array: ((values: readonly string[]) => ArrayTest) | null;
  /**
   * SET and NOT_SET read a missing field as `""` and report nothing; every other operator reports the field
   * missing and fails (library behaviour).
   */
  missingIsEmpty?: boolean;
}

const SMALL_SET = 8;

/** Membership test; a linear scan beats hashing for the short lists rules usually carry. */
export function membership(values: readonly unknown[]): (value: string) => boolean {
  if (values.length <= SMALL_SET) {
    const list = values.slice();
    return (value) => list.includes(value);
  }
  const set = new Set(values);
  return (value) => set.has(value);
}
