import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error.js';
import { queryObject, validate, validateQuery } from '../../src/http/validate.js';
import { codePointLength, Text } from '../../src/schemas/text.js';

/** The `issues` of the 400 that validating `value` throws. */
function issuesOf(schema: Parameters<typeof validate>[0], value: unknown): unknown {
  try {
    validate(schema, value, 'body');
  } catch (error) {
    if (error instanceof HttpError) return error.issues;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('query parameters', () => {
  it('keeps names of Object.prototype members as plain parameters', () => {
    const q = queryObject([['constructor', 'x'], ['toString', 'y'], ['__proto__', 'z'], ['a', '1'], ['a', '2']]);
    expect(Object.keys(q).sort()).toEqual(['__proto__', 'a', 'constructor', 'toString']);
    expect(q['constructor']).toBe('x');
    expect(q['__proto__']).toBe('z');
    expect(q['a']).toEqual(['1', '2']);
  });

  it('converts only canonical numbers and booleans', () => {
    const schema = Type.Object({ n: Type.Optional(Type.Integer()), b: Type.Optional(Type.Boolean()) });
    expect(validateQuery(schema, [['n', '12'], ['b', 'true']])).toEqual({ n: 12, b: true });
    for (const bad of ['1.5', '1e', ' 1', '0x10', '', '1.0', '1e2', '01', '-0.0', '9007199254740993', '99999999999999999999']) {
      expect(() => validateQuery(schema, [['n', bad]]), bad).toThrow();
    }
    expect(validateQuery(schema, [['n', '-9007199254740991']])).toEqual({ n: -9007199254740991 });
    const number = Type.Object({ x: Type.Number() });
    expect(validateQuery(number, [['x', '1.5e2']])).toEqual({ x: 150 });
    expect(() => validateQuery(number, [['x', '1e999']])).toThrow();
    expect(() => validateQuery(schema, [['b', 'yes']])).toThrow();
    expect(() => validateQuery(schema, [['n', '1'], ['n', '2']])).toThrow();
  });
});

describe('string lengths', () => {
  const emoji = '\u{1F600}';

  it('count characters, not UTF-16 units: an emoji is one', () => {
    expect(codePointLength(emoji.repeat(3))).toBe(3);
    expect(codePointLength(`a${emoji}b`)).toBe(3);
    // A lone surrogate is one character too.
    expect(codePointLength('\uD800x\uDC00')).toBe(3);
    const schema = Type.Object({ name: Text({ minLength: 1, maxLength: 255 }), promptId: Type.Optional(Text({ minLength: 10, maxLength: 40 })) });
    expect(validate(schema, { name: emoji.repeat(255) }, 'body')).toEqual({ name: emoji.repeat(255) });
    expect(issuesOf(schema, { name: emoji.repeat(256) })).toEqual({ name: ['Expected string length less or equal to 255'] });
    expect(issuesOf(schema, { name: 'x', promptId: emoji.repeat(5) })).toEqual({ promptId: ['Expected string length greater or equal to 10'] });
    expect(validate(schema, { name: 'x', promptId: emoji.repeat(10) }, 'body')).toMatchObject({ promptId: emoji.repeat(10) });
    expect(issuesOf(schema, { name: 3 })).toEqual({ name: ['Expected string'] });
  });

  it('apply a format with the length', () => {
    const schema = Type.Object({ email: Text({ format: 'email', maxLength: 320 }) });
    expect(validate(schema, { email: 'a@b.co' }, 'body')).toEqual({ email: 'a@b.co' });
    expect(issuesOf(schema, { email: 'not an address' })).toEqual({ email: ["Expected string to match 'email' format"] });
  });

  it('name the reason for a nullable field, not "Expected union value"', () => {
    const schema = Type.Object({ description: Type.Union([Text({ maxLength: 5 }), Type.Null()]), n: Type.Union([Type.Integer(), Type.Null()]) });
    expect(validate(schema, { description: null, n: null }, 'body')).toEqual({ description: null, n: null });
    expect(issuesOf(schema, { description: 'toolong', n: 1 })).toEqual({ description: ['Expected string length less or equal to 5'] });
    expect(issuesOf(schema, { description: 'ok', n: 'x' })).toEqual({ n: ['Expected integer'] });
  });
});
