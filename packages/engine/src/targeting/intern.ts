/**
 * Sharing of compiled closures between structurally identical inputs. Many flags carry the same rule shapes
 * (`user.plan ANY_OF [pro]`, a segment's filter AND-ed into many rules, the same flag in every environment), and a
 * compiled filter holds no per-flag state that changes its answer, so one closure can serve all of them.
 *
 * Entries are weak: a compiled filter lives as long as some compiled snapshot uses it, and the table forgets it
 * after that, so reloading snapshots does not grow it.
 */

import { compileAccessor, type Accessor } from '../context/flatten.js';

const table = new Map<string, WeakRef<object>>();
const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<string>((key) => {
        const ref = table.get(key);
        if (ref && ref.deref() === undefined) table.delete(key);
      })
    : undefined;

/** The value interned under `key`, made by `make` when there is none (or no weak references to keep it). */
export function interned<T extends object>(key: string, make: () => T): T {
  if (!registry || typeof WeakRef !== 'function') return make();
  const found = table.get(key)?.deref();
  if (found !== undefined) return found as T;
  const value = make();
  table.set(key, new WeakRef(value));
  registry.register(value, key);
  return value;
}

/**
 * A canonical text for a JSON-like value, or null when the value holds anything JSON would not round-trip exactly
 * (undefined, non-finite numbers, -0, functions, class instances…): such inputs are simply not shared.
 * `keyless` is set when a rollout filter without its own `key` is met (its hash then depends on the flag key).
 */
export function canonical(value: unknown, state: { keyless: boolean }): string | null {
  return write(value, state, 0);
}

const MAX_DEPTH = 64;

function write(value: unknown, state: { keyless: boolean }, depth: number): string | null {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? String(value) : null;
    case 'object': {
      if (value === null) return 'null';
      if (depth > MAX_DEPTH) return null;
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) return null;
          const item = write(value[i], state, depth + 1);
          if (item === null) return null;
          out += (i ? ',' : '') + item;
        }
        return out + ']';
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return null;
      const record = value as Record<string, unknown>;
      if (record.type === 'rolloutPercentage' && (record.key === undefined || record.key === null)) state.keyless = true;
      let out = '{';
      let first = true;
      for (const key of Object.keys(record)) {
        const item = write(record[key], state, depth + 1);
        if (item === null) return null;
        out += (first ? '' : ',') + JSON.stringify(key) + ':' + item;
        first = false;
      }
      // Inherited or non-enumerable properties would be invisible here; refuse anything unusual.
      if (Object.getOwnPropertyNames(record).length !== Object.keys(record).length) return null;
      return out + '}';
    }
    default:
      return null;
  }
}

/** One accessor per field path, whichever filters read it. */
export function sharedAccessor(field: string): Accessor {
  return interned(`\u0001field:${field}`, () => compileAccessor(field));
}
