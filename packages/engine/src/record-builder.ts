/**
 * Builds `evaluateAll`'s result: one object keyed by flag key. Adding 50 keys one by one to `{}` costs more than
 * evaluating the 50 flags (every store walks a map transition), while an object literal with those keys is a
 * single allocation from a boilerplate. So, once per snapshot, we generate the function holding that literal.
 * Where code generation is disallowed (`--disallow-code-generation-from-strings`) or the literal would be huge,
 * we fall back to a loop.
 */

const MAX_LITERAL_KEYS = 1000;

function loopBuilder<T, Scope>(keys: readonly string[]) {
  return (items: readonly { evaluate(scope: Scope): T }[], scope: Scope): Record<string, T> => {
    const result: Record<string, T> = {};
    for (let i = 0; i < items.length; i++) {
      const key = keys[i]!;
      if (key === '__proto__') {
        // An assignment would set the prototype instead of adding an entry.
        const value = items[i]!.evaluate(scope);
        Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        result[key] = items[i]!.evaluate(scope);
      }
    }
    return result;
  };
}

export function recordBuilder<T, Scope>(
  keys: readonly string[],
): (items: readonly { evaluate(scope: Scope): T }[], scope: Scope) => Record<string, T> {
  if (keys.length > MAX_LITERAL_KEYS) return loopBuilder<T, Scope>(keys);
  // JSON.stringify yields a valid JavaScript string literal for any key; a computed key keeps "__proto__" an
  // ordinary property. Evaluation runs in property order, which is the snapshot's order.
  const members = keys.map((key, i) => {
    const literal = JSON.stringify(key);
    return `${key === '__proto__' ? `[${literal}]` : literal}: items[${i}].evaluate(scope)`;
  });
  try {
    return new Function('items', 'scope', `'use strict'; return {${members.join(', ')}};`) as (
      items: readonly { evaluate(scope: Scope): T }[],
      scope: Scope,
    ) => Record<string, T>;
  } catch {
    return loopBuilder<T, Scope>(keys);
  }
}
