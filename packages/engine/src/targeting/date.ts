import type { ScalarTest } from './operator.js';

/**
 * Date operators, as the library computes them. `Date.parse(s)` is what `new Date(s).getTime()` does for a
 * string, without the allocation.
 *
 * AFTER/BEFORE are relative: "later/earlier than N days ago", the boundary moved by whole calendar days in local
 * time (`setDate`, so a DST change shifts it by an hour, as in the library). The boundary depends only on the
 * current millisecond, so it is recomputed when the clock has moved, not on every evaluation.
 */
function relative(values: readonly string[], after: boolean): ScalarTest {
  const days = Number(values[0]);
  let computedAt = Number.NaN;
  let boundary = Number.NaN;
  return (value) => {
    const now = Date.now();
    if (now !== computedAt) {
      const daysAgo = new Date(now);
      daysAgo.setDate(daysAgo.getDate() - days);
      boundary = daysAgo.getTime();
      computedAt = now;
    }
    const time = Date.parse(value);
    return after ? time > boundary : time < boundary;
  };
}

/** DATE_AFTER/DATE_BEFORE: absolute and inclusive; an unparsable side is false. */
function absolute(values: readonly string[], after: boolean): ScalarTest {
  const bound = new Date(values[0] as string).getTime();
  if (Number.isNaN(bound)) return () => false;
  return after ? (value) => Date.parse(value) >= bound : (value) => Date.parse(value) <= bound;
}

export const afterDaysAgo = (values: readonly string[]): ScalarTest => relative(values, true);
export const beforeDaysAgo = (values: readonly string[]): ScalarTest => relative(values, false);
export const dateAfter = (values: readonly string[]): ScalarTest => absolute(values, true);
export const dateBefore = (values: readonly string[]): ScalarTest => absolute(values, false);
