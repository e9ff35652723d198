/** Lone UTF-16 surrogates, which JSON allows as escapes and UTF-8 storage cannot hold. */

interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

const MAX_DEPTH = 64;

const fix = (text: string): string => {
  const s = text as unknown as WellFormedString;
  return s.isWellFormed() ? text : s.toWellFormed();
};

/**
 * The value with every lone UTF-16 surrogate (valid in JSON as an escape, `"\ud800"`, but not Unicode) replaced by
 * U+FFFD, in strings and in member names. The SQL stores keep UTF-8, where the same replacement happens on write:
 * done here, every store holds what the answer shows, and sending the same text again changes nothing (it
 * advanced flagStateVersion on every repeat before). The value given is left as it is (it may be a host parser's):
 * what needs a change is copied.
 *
 * Below MAX_DEPTH levels the value is left as it is: every caller refuses that much nesting anyway (a body deeper
 * than 64 levels, a context deeper than its one level of grouping), and a 16 KB `contextJson` of brackets would
 * otherwise take this recursion past the stack (a RangeError, answered 500).
 */
export function wellFormed(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return fix(value);
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const fixed = wellFormed(item, depth + 1);
      if (fixed !== item) (out ??= [...value])[i] = fixed;
    });
    return out ?? value;
  }
  const entries = Object.entries(value);
  const fixed = entries.map(([key, item]) => [fix(key), wellFormed(item, depth + 1)] as const);
  if (fixed.every(([key, item], i) => key === entries[i]![0] && item === entries[i]![1])) return value;
  const out: Record<string, unknown> = {};
  // Defined, not assigned: a member named `__proto__` stays a member, as JSON.parse makes it.
  for (const [key, item] of fixed) Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * `wellFormed` for a value parsed from the JSON `text`. Read from UTF-8 (a request's bytes, a decoded URL), a lone
 * surrogate can only come from a `\u` escape: a text without one needs no walk.
 */
export function wellFormedJson(text: string, value: unknown): unknown {
  return text.includes('\\u') ? wellFormed(value) : value;
}
