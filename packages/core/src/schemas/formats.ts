import { FormatRegistry } from '@sinclair/typebox';

// TypeBox ships no string formats; register the ones the specs use, once, before any schema is compiled.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):?(\d{2}))$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function registerFormats(): void {
  if (!FormatRegistry.Has('date-time')) {
    FormatRegistry.Set('date-time', isDateTime);
  }
  if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (v) => EMAIL.test(v));
  if (!FormatRegistry.Has('uri')) {
    FormatRegistry.Set('uri', (v) => {
      try {
        return Boolean(new URL(v).protocol);
      } catch {
        return false;
      }
    });
  }
}

/**
 * RFC 3339 `date-time` with a real calendar date and clock time. `Date.parse` alone rolls impossible dates over
 * (`2023-02-29` became March 1st, `T24:00` the next day), so a typo was stored as another moment. A leap second
 * (`:60`) is refused too: a JavaScript date cannot hold it, and storing it as the next second would change it.
 */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  return !Number.isNaN(Date.parse(value));
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

registerFormats();
