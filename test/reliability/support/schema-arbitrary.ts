import { Kind, type TSchema } from '@sinclair/typebox';
import fc from 'fast-check';

/**
 * fast-check arbitraries for the fuzzer: values that satisfy a route's TypeBox schema (so that many requests get
 * past validation and exercise the route itself), and mutations of such values into the inputs a careless or
 * hostile client sends: missing and extra fields, wrong types, huge strings, deep nesting, odd unicode, numbers at
 * the limits.
 */

type Schema = TSchema & Record<string, unknown>;

const MAX_DEPTH = 3;

function refsOf(schema: unknown, into = new Map<string, Schema>(), seen = new Set<unknown>()): Map<string, Schema> {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return into;
  seen.add(schema);
  const s = schema as Schema;
  if (typeof s['$id'] === 'string' && s[Kind]) into.set(s['$id'], s);
  for (const value of Object.values(s)) refsOf(value, into, seen);
  return into;
}

function containsThis(schema: unknown, seen = new Set<unknown>()): boolean {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  if ((schema as Schema)[Kind] === 'This') return true;
  return Object.values(schema as object).some((v) => containsThis(v, seen));
}

/** An arbitrary of values that (mostly) satisfy `schema`. */
export function validValue(schema: TSchema): fc.Arbitrary<unknown> {
  const refs = refsOf(schema);
  const build = (s: Schema, depth: number): fc.Arbitrary<unknown> => {
    switch (s[Kind]) {
      case 'Object': {
        const properties = (s['properties'] ?? {}) as Record<string, Schema>;
        const required = new Set((s['required'] ?? []) as string[]);
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, prop] of Object.entries(properties)) model[name] = build(prop, depth + 1);
        const base = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
        const additional = s['additionalProperties'];
        if (typeof additional === 'object' && additional !== null && depth < MAX_DEPTH) {
          const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), build(additional as Schema, depth + 1), { maxKeys: 3 });
          return fc.tuple(base, extra).map(([b, e]) => ({ ...e, ...b }));
        }
        return base;
      }
      case 'String':
        return stringFor(s);
      case 'Integer':
        return fc.integer({ min: num(s['minimum'], -1_000_000), max: num(s['maximum'], 1_000_000) });
      case 'Number':
        return fc.double({ min: num(s['minimum'], -1e9), max: num(s['maximum'], 1e9), noNaN: true, noDefaultInfinity: true });
      case 'Boolean':
        return fc.boolean();
      case 'Null':
        return fc.constant(null);
      case 'Undefined':
        return fc.constant(undefined);
      case 'Literal':
        return fc.constant(s['const']);
      case 'Union': {
        let branches = (s['anyOf'] ?? []) as Schema[];
        if (depth >= MAX_DEPTH) {
          const flat = branches.filter((b) => !containsThis(b));
          if (flat.length) branches = flat;
        }
        return fc.oneof(...branches.map((b) => build(b, depth + 1)));
      }
      case 'Array': {
        const min = num(s['minItems'], 0);
        const max = Math.max(min, Math.min(num(s['maxItems'], 4), depth >= MAX_DEPTH ? min : 4));
        const items = build(s['items'] as Schema, depth + 1);
        return s['uniqueItems']
          ? fc.uniqueArray(items, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
          : fc.array(items, { minLength: min, maxLength: max });
      }
      case 'Record': {
        const patterns = Object.values((s['patternProperties'] ?? {}) as Record<string, Schema>);
        const value = patterns[0] ? build(patterns[0], depth + 1) : fc.jsonValue({ maxDepth: 1 });
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), value, { maxKeys: depth >= MAX_DEPTH ? 0 : 3 });
      }
      case 'This': {
        const target = refs.get(s['$ref'] as string);
        return target ? build(target, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  };
  return build(schema as Schema, 0);
}

const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

function stringFor(s: Schema): fc.Arbitrary<string> {
  const min = num(s['minLength'], 0);
  const max = num(s['maxLength'], Math.max(min, 24));
  const fit = (a: fc.Arbitrary<string>) => a.filter((v) => v.length >= min && v.length <= max);
  switch (s['format']) {
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'email':
      return fit(fc.emailAddress());
    case 'uri':
      return fit(fc.webUrl());
  }
  if (typeof s['pattern'] === 'string') {
    const pattern = new RegExp(s['pattern']);
    return fc.oneof(fit(fc.stringMatching(pattern)), fc.constantFrom('red', 'blue', '#ff0000', '#abc').filter((v) => pattern.test(v)));
  }
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, min + 24) }) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(max)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, min + 8) }).filter((v) => v.length <= max) },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile values

export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\uD800', // lone surrogate
  '\uDFFF\uD800',
  '\uFEFF',
  '\u202Eevil',
  'e\u0301', // combining accent
  'İ',
  '💥🏳️‍🌈',
  '\u2028\u2029',
  '__proto__',
  'constructor',
  'prototype',
  "' OR 1=1 --",
  '"; drop table flags; --',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}',
  'null',
  'true',
  '1e309',
  'NaN',
] as const;

export const LIMIT_NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  5,
  6,
  255,
  256,
  10_000,
  10_001,
  100_000,
  100_001,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  Number.EPSILON,
] as const;

/** Sizes of huge strings; the largest exceeds the fuzz instance's body limit (64 KiB). */
export const HUGE_SIZES = [257, 4097, 16_385, 70_000] as const;

export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

export function nestedText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A value of any JSON type, biased to the hostile ones. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...LIMIT_NUMBERS) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...HUGE_SIZES), fc.constantFrom('a', 'é', '💥')).map(([n, c]) => c.repeat(n)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(5, 50, 1000, 2000), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>).map(([d, k]) => nested(d, k)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': '' }) },
);

type Mutation =
  | { op: 'drop'; at: number }
  | { op: 'extra'; at: number; key: string; value: unknown }
  | { op: 'replace'; at: number; value: unknown }
  | { op: 'wrap'; at: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('extra' as const),
    at: fc.nat(),
    key: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'id', 'type', 'key')),
    value: hostileValue,
  }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }) },
  fc.record({ op: fc.constant('wrap' as const), at: fc.nat() }),
);

type Path = Array<string | number>;

function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (out.length > 200) return out;
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...path, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

const clone = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function applyMutation(root: unknown, mutation: Mutation): unknown {
  // Generated values may be shared instances (fc.constantFrom([], {})): insert a copy, never the value itself, or a
  // later mutation could push an array into itself.
  const m = 'value' in mutation ? { ...mutation, value: clone(mutation.value) } : mutation;
  const paths = pathsOf(root);
  const path = paths[m.at % paths.length]!;
  if (path.length === 0) {
    if (m.op === 'replace') return m.value;
    if (m.op === 'wrap') return [root];
    if (m.op === 'extra' && typeof root === 'object' && root !== null && !Array.isArray(root)) {
      setOwn(root, m.key, m.value);
      return root;
    }
    return root;
  }
  const parent = path.slice(0, -1).reduce<any>((node, key) => node?.[key], root);
  const key = path[path.length - 1]!;
  if (typeof parent !== 'object' || parent === null) return root;
  switch (m.op) {
    case 'drop':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case 'replace':
      setOwn(parent, key, m.value);
      break;
    case 'wrap':
      setOwn(parent, key, [parent[key]]);
      break;
    case 'extra': {
      const target = parent[key];
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) setOwn(target, m.key, m.value);
      else if (Array.isArray(target)) target.push(m.value);
      else if (!Array.isArray(parent)) setOwn(parent, m.key, m.value);
      break;
    }
  }
  return root;
}

/** `valid` with one to three mutations applied. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.array(mutationArb, { minLength: 1, maxLength: 3 }))
    .map(([value, mutations]) => mutations.reduce((acc, m) => applyMutation(acc, m), clone(value)));
}

/** Texts that are not JSON, or JSON that JSON.parse reads in surprising ways. */
export function badJsonText(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    valid.chain((v) => {
      const text = JSON.stringify(v) ?? '';
      return fc.nat({ max: Math.max(0, text.length - 1) }).map((n) => text.slice(0, n));
    }),
    valid.map((v) => '\uFEFF' + JSON.stringify(v)),
    valid.map((v) => JSON.stringify(v) + ' trailing'),
    fc.constantFrom('{', '}', '[', '{"a":1,}', "{'a':1}", 'NaN', 'undefined', '{"a":01}', '"\\ud800"', '{"a":"\\u00"}', '\u0000', ' '),
    fc.constantFrom(5_000, 100_000).map((d) => nestedText(d, 'array')),
    fc.constantFrom(5_000, 100_000).map((d) => nestedText(d, 'object')),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('null', 'true', '0', '-0', '1e400', '""', '[]', '"x"'),
  );
}
