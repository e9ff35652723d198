import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import { ContextSchema, type Context } from '../schemas/context.js';

type Attributes = Record<string, unknown>;

const MEMBERS = ['user', 'company', 'other'] as const;
type Member = (typeof MEMBERS)[number];

const isPlainObject = (value: unknown): value is Attributes =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A context Flagmount cannot evaluate; the routes answer it as OFREP's `INVALID_CONTEXT`. */
export class InvalidContextError extends Error {
  override readonly name = 'InvalidContextError';
}

/**
 * OpenFeature's context is flat and user-centred (`targetingKey` plus attributes); Flagmount's has `user`,
 * `company` and `other` members. The mapping, in order of increasing precedence:
 * 1. every plain attribute is a user attribute;
 * 2. `user` / `company` / `other` objects are merged into that member;
 * 3. dotted keys `user.x`, `company.x`, `other.x` set `x` on that member (`company.profile.tier` sets the
 *    attribute `profile.tier`, which evaluates exactly like the nested `profile: { tier }`);
 * 4. `companyId` is `company.id`, and `targetingKey` is `user.id`.
 * The result must satisfy the runtime context rules (one level of grouping, scalar or array values).
 */
export function toFlagmountContext(input: unknown): Context {
  if (input === undefined || input === null) return {};
  const raw = normalize(input);
  if (!isPlainObject(raw)) throw new InvalidContextError('context must be an object');
  const members: Record<Member, Attributes> = { user: {}, company: {}, other: {} };
  const dotted: Array<[Member, string, unknown]> = [];
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'targetingKey' || name === 'companyId') continue;
    if ((MEMBERS as readonly string[]).includes(name) && isPlainObject(value)) continue;
    const dot = name.indexOf('.');
    const member = dot > 0 ? (name.slice(0, dot) as Member) : undefined;
    if (member && MEMBERS.includes(member) && dot < name.length - 1) dotted.push([member, name.slice(dot + 1), value]);
    else define(members.user, name, value);
  }
  for (const member of MEMBERS) {
    const group = raw[member];
    if (isPlainObject(group)) for (const [name, value] of Object.entries(group)) define(members[member], name, value);
  }
  for (const [member, name, value] of dotted) define(members[member], name, value);
  if (raw['companyId'] !== undefined) members.company['id'] = raw['companyId'];
  if (raw['targetingKey'] !== undefined) {
    if (typeof raw['targetingKey'] !== 'string') throw new InvalidContextError('targetingKey must be a string');
    // OpenFeature SDKs send "" when no targeting key was set: that is "no user id", not a user called "".
    if (raw['targetingKey'] !== '') members.user['id'] = raw['targetingKey'];
  }
  const context: Attributes = {};
  for (const member of MEMBERS) if (Object.keys(members[member]).length) context[member] = members[member];
  try {
    return validate<Context>(ContextSchema, context, 'context');
  } catch (error) {
    if (error instanceof HttpError) throw new InvalidContextError(describeIssues(error));
    throw error;
  }
}

/** OpenFeature contexts may hold Dates (its SDKs allow them): they evaluate as ISO strings, as they would over JSON. */
function normalize(value: unknown): unknown {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new InvalidContextError('context holds an invalid Date');
    return value.toISOString();
  }
  if (Array.isArray(value)) return value.map(normalize);
  // Object.fromEntries defines own properties, so an attribute called `__proto__` stays an attribute.
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  return value;
}

/** Own-property assignment: an attribute called `__proto__` must stay an attribute. */
function define(target: Attributes, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

function describeIssues(error: HttpError): string {
  const issues = Object.entries(error.issues ?? {}).slice(0, 5);
  if (!issues.length) return error.message;
  return issues.map(([path, messages]) => `${path || '(root)'}: ${messages.join('; ')}`).join(', ');
}
