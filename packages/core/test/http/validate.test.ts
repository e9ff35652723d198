import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { queryObject, validateQuery } from '../../src/http/validate.js';

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
    for (const bad of ['1.5', '1e', ' 1', '0x10', '']) expect(() => validateQuery(schema, [['n', bad]])).toThrow();
    expect(() => validateQuery(schema, [['b', 'yes']])).toThrow();
    expect(() => validateQuery(schema, [['n', '1'], ['n', '2']])).toThrow();
  });
});
