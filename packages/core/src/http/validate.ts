import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, ValueErrorType, type TypeCheck, type ValueError } from '@sinclair/typebox/compiler';
import '../schemas/formats.js';
import { TEXT_KIND, textMessage, type TextOptions } from '../schemas/text.js';
import { addIssue, hasIssue, invalidRequest, type Issues } from './http-error.js';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checker(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/** `/updates/0/flagKey` → `updates.0.flagKey`; the root is `""` (spec: dot notation). */
export function dottedPath(pointer: string, prefix = ''): string {
  const path = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  return prefix && path ? `${prefix}.${path}` : prefix || path;
}

/**
 * What a person can act on. A nullable field (`string or null`) that fails reports why the non-null branch
 * refused the value ("Expected string length less or equal to 8192") rather than TypeBox's "Expected union value".
 */
function messageOf(error: ValueError): string {
  if (error.schema[Kind] === TEXT_KIND) return textMessage(error.schema as TextOptions, error.value);
  if (error.type !== ValueErrorType.Union || error.value === null) return error.message;
  const branches = (error.schema['anyOf'] ?? []) as TSchema[];
  const nonNull = branches.flatMap((branch, i) => (branch[Kind] === 'Null' ? [] : [i]));
  if (branches.length !== 2 || nonNull.length !== 1) return error.message;
  const first = error.errors[nonNull[0]!]?.First();
  return first ? messageOf(first) : error.message;
}

/** Validates `value`; throws a 400 `invalid_request` whose `issues` maps each field path to its messages. */
export function validate<T>(schema: TSchema, value: unknown, what: string, prefix = ''): T {
  const check = checker(schema);
  if (check.Check(value)) return value as T;
  const issues: Issues = {};
  for (const error of check.Errors(value)) {
    // Unions report every branch; one message per path is what a person can act on.
    const path = dottedPath(error.path, prefix);
    const message = messageOf(error);
    if (!hasIssue(issues, path, message)) addIssue(issues, path, message);
    if (Object.keys(issues).length >= 50) break;
  }
  throw invalidRequest(`Invalid ${what}`, issues);
}

/** Query pairs → object: a key sent once is a string, a key sent more than once an array of strings. */
export function queryObject(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string | string[]> {
  // Own keys only: `?constructor=x` or `?__proto__=x` are parameters, not a way into Object.prototype.
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of pairs) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INTEGER = /^(?:0|-?[1-9]\d*)$/;

/** The JSON types a property schema accepts (through Optional/Union). */
function acceptedTypes(schema: TSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (!schema) return types;
  if (typeof schema['type'] === 'string') types.add(schema['type']);
  for (const branch of (schema['anyOf'] ?? schema['oneOf'] ?? []) as TSchema[]) for (const t of acceptedTypes(branch)) types.add(t);
  return types;
}

/** Per query schema: the accepted types of each declared property, worked out once. */
const propertyTypes = new WeakMap<TSchema, Map<string, Set<string>>>();

function typesOf(schema: TSchema, name: string): ReadonlySet<string> {
  let byName = propertyTypes.get(schema);
  if (!byName) {
    byName = new Map();
    const properties = (schema['properties'] ?? {}) as Record<string, TSchema>;
    for (const key of Object.keys(properties)) byName.set(key, acceptedTypes(properties[key]));
    propertyTypes.set(schema, byName);
  }
  return byName.get(name) ?? NO_TYPES;
}

const NO_TYPES: ReadonlySet<string> = new Set();

/**
 * A query value as the number it spells, or undefined. Where the schema wants an integer only plain decimal digits
 * within the exactly representable range count (`1.0`, `1e2` and 2^53 + 1 stay strings), so a malformed or
 * out-of-range value fails validation rather than being rounded to a different number.
 */
function queryNumber(types: ReadonlySet<string>, value: string): number | undefined {
  if (types.has('number')) return NUMERIC.test(value) && Number.isFinite(Number(value)) ? Number(value) : undefined;
  if (!types.has('integer') || !INTEGER.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Query values arrive as strings: a canonical number becomes a number and `true`/`false` a boolean where the
 * schema wants one, and nothing else is coerced (`1abc` stays a string), so a malformed value is a 400.
 */
function convertQuery(schema: TSchema, pairs: ReadonlyArray<readonly [string, string]>): Record<string, unknown> {
  const query: Record<string, unknown> = queryObject(pairs);
  // Over the pairs rather than `for…in`: the object has no prototype, and enumerating such a dictionary-mode object
  // costs more than the whole conversion.
  for (const [name] of pairs) {
    const value = query[name];
    if (typeof value !== 'string') continue;
    const types = typesOf(schema, name);
    if (types.has('string')) continue;
    const number = queryNumber(types, value);
    if (number !== undefined) query[name] = number;
    else if (types.has('boolean') && (value === 'true' || value === 'false')) query[name] = value === 'true';
  }
  return query;
}

/** Converts query strings to the schema's numbers/booleans, then validates. */
export function validateQuery<T>(schema: TSchema, pairs: ReadonlyArray<readonly [string, string]>): T {
  return validate<T>(schema, convertQuery(schema, pairs), 'query parameters');
}
