/**
 * Context field access with the results of `flattenJSON` from @reflag/flag-evaluation, without flattening.
 *
 * The library flattens the whole context to dotted keys on every evaluation and looks fields up in that map. We
 * resolve each field's path once, at compile time, into an accessor that walks only the objects it needs. What an
 * accessor returns is what the library's flat map would hold for the field:
 *  - a string: scalars as `String(value)`; `null` and `{}` are present as `""` (unlike a missing field);
 *  - MISSING: absent, `undefined`, or a non-empty object (the library only writes leaves);
 *  - an array: the one documented divergence. The library splits arrays into `field.0`, `field.1`… so the field
 *    itself is missing (or `""` when empty); we hand the array to the spec's array semantics instead.
 * Paths through arrays by index (`user.roles.0`) resolve like the library's flat keys.
 */

export const MISSING: unique symbol = Symbol('missing');
export type Missing = typeof MISSING;
export type FieldValue = string | readonly unknown[] | Missing;
export type Accessor = (context: object) => FieldValue;

// Above this many segments we stop trying keys that themselves contain dots (2^(n-1) ways to split a path).
const MAX_SPLIT_SEGMENTS = 6;
const INDEX = /^(?:0|[1-9]\d*)$/;

/** What the library's flat map holds for a value reached at the end of a path. */
export function toFieldValue(value: unknown): FieldValue {
  if (typeof value === 'string') return value;
  if (value === undefined) return MISSING;
  if (value === null) return '';
  if (typeof value === 'object') {
    if (Array.isArray(value)) return value;
    // for…in, not Object.keys: the library decides emptiness with for…in.
    for (const _ in value) return MISSING;
    return '';
  }
  return String(value);
}

/** How an array item compares: the scalar rule of the library (null is ""), then String(). */
export function itemString(item: unknown): string {
  return typeof item === 'string' ? item : item === null || item === undefined ? '' : String(item);
}

type Step = (value: unknown) => unknown;

function isPlainKey(key: string): boolean {
  // Keys that exist on every object would be found through the prototype; the library only sees own ones.
  return !(key in Object.prototype) && !INDEX.test(key);
}

function compileStep(key: string): Step {
  const index = INDEX.test(key) ? Number(key) : -1;
  if (isPlainKey(key)) {
    return (value) =>
      typeof value !== 'object' || value === null || Array.isArray(value)
        ? undefined
        : (value as Record<string, unknown>)[key];
  }
  return (value) => {
    if (typeof value !== 'object' || value === null) return undefined;
    if (Array.isArray(value)) return index >= 0 && index < value.length ? value[index] : undefined;
    return Object.prototype.propertyIsEnumerable.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  };
}

/**
 * Straight-line code for a field whose routes are all plain keys, with the keys written into it as literals. A
 * closure shared by all fields would share its inline caches too: with a second field name its keyed loads go
 * megamorphic (a stub-cache lookup each), and a wrapper trying the routes in turn would make a megamorphic call
 * to each. Generated code gets its own caches and constant names, so each load is one map check (measured: the
 * bench's two-field flag went from about 200 to 120 ns per evaluation, hashing aside). Null when code generation
 * is disallowed or the budget is spent: the closures below then do the same work.
 */
function generatedAccessor(routeList: readonly (readonly string[])[]): Accessor | null {
  if (generated >= MAX_GENERATED) return null;
  let source = "'use strict';";
  routeList.forEach((keys, r) => {
    let body = 'let v = context;';
    for (let i = 0; i < keys.length; i++) {
      // The library only flattens into plain objects; anything else on the way means the field is absent.
      if (i > 0) body += ' if (typeof v !== "object" || v === null || Array.isArray(v)) return MISSING;';
      // JSON.stringify yields a valid JavaScript string literal for any key, so a field name cannot escape it.
      body += ` v = v[${JSON.stringify(keys[i])}];`;
    }
    source += ` const r${r} = function (context) { ${body} return typeof v === "string" ? v : toFieldValue(v); };`;
  });
  if (routeList.length === 1) {
    source += ' return r0;';
  } else {
    source += ' return function (context) { let v;';
    for (let r = 0; r < routeList.length; r++) source += ` v = r${r}(context); if (v !== MISSING) return v;`;
    source += ' return MISSING; };';
  }
  try {
    const make = new Function('MISSING', 'toFieldValue', source);
    generated++;
    return make(MISSING, toFieldValue) as Accessor;
  } catch {
    generated = MAX_GENERATED;
    return null;
  }
}

// Accessors are interned per field path (targeting/intern.ts), so this only bounds pathological snapshots.
const MAX_GENERATED = 10_000;
let generated = 0;

function compileRoute(keys: readonly string[]): Accessor {
  // The common shapes (`company.plan`, `user.profile.roles`) get straight-line code; the rest loop.
  if (keys.every(isPlainKey)) {
    const [k0, k1, k2] = keys as [string, string?, string?];
    const child = (value: unknown, key: string): unknown =>
      typeof value !== 'object' || value === null || Array.isArray(value)
        ? undefined
        : (value as Record<string, unknown>)[key];
    if (keys.length === 1) return (context) => toFieldValue((context as Record<string, unknown>)[k0]);
    if (keys.length === 2) {
      return (context) => toFieldValue(child((context as Record<string, unknown>)[k0], k1!));
    }
    if (keys.length === 3) {
      return (context) => toFieldValue(child(child((context as Record<string, unknown>)[k0], k1!), k2!));
    }
  }
  const steps = keys.map(compileStep);
  return (context) => {
    let value: unknown = context;
    for (let i = 0; i < steps.length && value !== undefined; i++) value = steps[i]!(value);
    return toFieldValue(value);
  };
}

/** Every way to cut the path into keys, the plain one first: `{ "profile.plan": x }` flattens like nesting. */
function routes(segments: readonly string[]): string[][] {
  if (segments.length > MAX_SPLIT_SEGMENTS) return [segments.slice()];
  const result: string[][] = [];
  const cuts = segments.length - 1;
  for (let mask = (1 << cuts) - 1; mask >= 0; mask--) {
    const keys: string[] = [];
    let current = segments[0]!;
    for (let i = 1; i < segments.length; i++) {
      if (mask & (1 << (i - 1))) {
        keys.push(current);
        current = segments[i]!;
      } else {
        current += '.' + segments[i];
      }
    }
    keys.push(current);
    result.push(keys);
  }
  return result;
}

/**
 * Compile a dotted field path into an accessor. When one flat key could come from several routes (a key with a
 * dot beside a nested object), the plain nesting wins; the library would keep whichever it wrote last.
 */
export function compileAccessor(field: string): Accessor {
  const routeList = routes(field.split('.'));
  const generatedOne = routeList.every((keys) => keys.every(isPlainKey)) ? generatedAccessor(routeList) : null;
  if (generatedOne) return generatedOne;
  const [plain, ...others] = routeList.map(compileRoute);
  if (others.length === 0) return plain!;
  return (context) => {
    const value = plain!(context);
    if (value !== MISSING) return value;
    for (const route of others) {
      const found = route(context);
      if (found !== MISSING) return found;
    }
    return MISSING;
  };
}
