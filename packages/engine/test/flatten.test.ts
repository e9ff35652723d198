import { flattenJSON } from '@reflag/flag-evaluation';
import { describe, expect, it } from 'vitest';
import { compileAccessor, MISSING, type FieldValue } from '../src/context/flatten.js';

const read = (field: string, context: object): FieldValue => compileAccessor(field)(context);

/** What the library's flat map holds for a field (undefined: missing). */
const library = (field: string, context: object): string | undefined =>
  Object.prototype.hasOwnProperty.call(flattenJSON(context), field) ? flattenJSON(context)[field] : undefined;

describe('compileAccessor', () => {
  const cases: Array<[string, object]> = [
    ['user.id', { user: { id: 'u1' } }],
    ['user.id', { user: { id: 42 } }],
    ['user.id', { user: { id: 1.5e-7 } }],
    ['user.id', { user: { id: true } }],
    ['user.id', { user: { id: null } }],
    ['user.id', { user: { id: {} } }],
    ['user.id', { user: { id: { deep: 1 } } }],
    ['user.id', { user: { id: undefined } }],
    ['user.id', { user: {} }],
    ['user.id', { user: null }],
    ['user.id', { user: 'plain' }],
    ['user.id', {}],
    ['user', { user: {} }],
    ['user', { user: { id: 1 } }],
    ['user', { user: { id: undefined } }],
    ['user.profile.plan', { user: { profile: { plan: 'pro' } } }],
    ['user.profile.plan', { user: { profile: null } }],
    ['user.profile.plan', { user: { 'profile.plan': 'dotted' } }],
    ['user.profile.plan', { 'user.profile': { plan: 'dotted root' } }],
    ['user.roles.0', { user: { roles: ['a', 'b'] } }],
    ['user.roles.1', { user: { roles: ['a', null] } }],
    ['user.roles.01', { user: { roles: ['a', 'b'] } }],
    ['user.roles.length', { user: { roles: ['a', 'b'] } }],
    ['user.roles.0.name', { user: { roles: [{ name: 'n' }] } }],
    ['user.0', { user: { 0: 'zero' } }],
    ['user.constructor', { user: {} }],
    ['user.toString', { user: { id: 1 } }],
    ['user.constructor', { user: JSON.parse('{"constructor":"own"}') }],
    ['user.__proto__', { user: JSON.parse('{"__proto__":"own"}') }],
    ['user.when', { user: { when: new Date(0) } }],
  ];

  it.each(cases)('%s in %j reads what flattenJSON holds', (field, context) => {
    const expected = library(field, context);
    const actual = read(field, context);
    expect(actual === MISSING ? undefined : actual).toEqual(expected);
  });

  it('returns arrays as they are (the one divergence: the library sees the field as missing)', () => {
    const roles = ['a', 'b'];
    expect(read('user.roles', { user: { roles } })).toBe(roles);
    expect(read('user.profile.roles', { user: { profile: { roles: [] } } })).toEqual([]);
    expect(library('user.roles', { user: { roles } })).toBeUndefined();
  });

  it('does not depend on the shape of the context it was compiled against', () => {
    const accessor = compileAccessor('company.plan');
    expect(accessor({ company: { plan: 'a' } })).toBe('a');
    expect(accessor({ company: { plan: 2, other: 1 } })).toBe('2');
    expect(accessor({ company: [] })).toBe(MISSING);
    expect(accessor({})).toBe(MISSING);
  });
});
