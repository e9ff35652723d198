import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue } from '../src/codec.js';
import { codecs } from '../src/codecs.js';

const sqlite = { bool: (b: boolean) => (b ? 1 : 0), param: () => '?' };
const postgres = { bool: (b: boolean) => b, param: (n: number) => `$${n}` };

describe('codecs', () => {
  it('round-trips every kind through either encoding', () => {
    for (const enc of [sqlite, postgres]) {
      expect(decodeValue('bool', encodeValue('bool', true, enc))).toBe(true);
      expect(decodeValue('bool', encodeValue('bool', false, enc))).toBe(false);
      expect(decodeValue('json', encodeValue('json', { a: [1, { b: null }] }, enc))).toEqual({ a: [1, { b: null }] });
      expect(encodeValue('json', null, enc)).toBeNull();
      expect(decodeValue('json', null)).toBeNull();
      // `unknown` fields: null and absent stay distinct.
      expect(decodeValue('any', encodeValue('any', null, enc))).toBeNull();
      expect(decodeValue('any', encodeValue('any', undefined, enc))).toBeUndefined();
      expect(decodeValue('any', encodeValue('any', false, enc))).toBe(false);
    }
    expect(decodeValue('int', '9007199254740991')).toBe(9007199254740991); // pg returns int8 as text
    expect(decodeValue('int', null)).toBeNull();
  });

  it('patches skip undefined values and the fixed columns', () => {
    const patch = codecs.environments.encodePatch(
      { name: 'x', isProduction: true, order: undefined, flagStateVersion: 9 } as never,
      sqlite,
    );
    expect(patch).toEqual({ name: 'x', is_production: 1 });
    expect(codecs.environments.valueColumns).not.toContain('flag_state_version');
    expect(codecs.environments.valueColumns).not.toContain('id');
  });
});
