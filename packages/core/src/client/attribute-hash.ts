/**
 * A 32-bit FNV-1a hash of an entity's attributes (every member but `id`), walked in key order as given: the cheap
 * key by which the in-process client tells "this user's attributes changed" without serialising the context.
 * Nested objects and arrays are walked too (to a depth of 8, then their type alone counts). Two equal objects
 * whose keys were added in another order hash apart: that costs one extra sync, never a missed one.
 */
const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;
const MAX_DEPTH = 8;

function text(hash: number, value: string): number {
  let h = hash;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), PRIME);
  // A separator, so that ('ab', 'c') and ('a', 'bc') differ.
  return Math.imul(h ^ 0xff, PRIME);
}

function value(hash: number, v: unknown, depth: number): number {
  switch (typeof v) {
    case 'string':
      return text(Math.imul(hash ^ 1, PRIME), v);
    case 'number':
      return text(Math.imul(hash ^ 2, PRIME), String(v));
    case 'boolean':
      return Math.imul(hash ^ (v ? 3 : 4), PRIME);
    case 'undefined':
      return Math.imul(hash ^ 5, PRIME);
    case 'object': {
      if (v === null) return Math.imul(hash ^ 6, PRIME);
      if (depth >= MAX_DEPTH) return Math.imul(hash ^ 7, PRIME);
      if (Array.isArray(v)) {
        let h = Math.imul(hash ^ 8, PRIME);
        for (let i = 0; i < v.length; i++) h = value(h, v[i], depth + 1);
        return Math.imul(h ^ 9, PRIME);
      }
      return members(Math.imul(hash ^ 10, PRIME), v as Record<string, unknown>, depth + 1, false);
    }
    default:
      // Functions, symbols, BigInts: JSON cannot hold them, so the store never sees them; their type is enough.
      return text(Math.imul(hash ^ 11, PRIME), typeof v);
  }
}

function members(hash: number, object: Record<string, unknown>, depth: number, skipId: boolean): number {
  let h = hash;
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key) || (skipId && key === 'id')) continue;
    h = value(text(h, key), object[key], depth);
  }
  return Math.imul(h ^ 12, PRIME);
}

/** The hash of `entity`'s attributes, `id` left out: 30 bits, a small integer V8 stores unboxed. */
export function attributeHash(entity: Record<string, unknown>): number {
  return members(OFFSET, entity, 0, true) & 0x3fffffff;
}

/** The hash of a string (an entity id, a flag key): the caches' key, a small integer. */
export function stringHash(value: string): number {
  return text(OFFSET, value) & 0x3fffffff;
}
