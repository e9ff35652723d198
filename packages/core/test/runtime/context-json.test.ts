import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseContextText } from '../../src/runtime/context/context-json.js';

type Outcome = { value: unknown } | { error: string };

const outcome = (parse: (text: string) => unknown, text: string): Outcome => {
  try {
    return { value: parse(text) };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
};

/** Equal as `JSON.parse` results must be: same prototypes, same own keys in the same order, `Object.is` leaves. */
function expectSame(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected !== 'object' || expected === null) {
    expect(Object.is(actual, expected), `${path}: ${String(actual)} vs ${String(expected)}`).toBe(true);
    return;
  }
  expect(typeof actual, path).toBe('object');
  expect(Object.getPrototypeOf(actual), path).toBe(Object.getPrototypeOf(expected));
  expect(Array.isArray(actual), path).toBe(Array.isArray(expected));
  expect(Reflect.ownKeys(actual as object), path).toEqual(Reflect.ownKeys(expected));
  for (const key of Reflect.ownKeys(expected)) {
    const a = Object.getOwnPropertyDescriptor(actual, key)!;
    const e = Object.getOwnPropertyDescriptor(expected, key)!;
    expect({ ...a, value: undefined }, `${path}.${String(key)}`).toEqual({ ...e, value: undefined });
    expectSame(a.value, e.value, `${path}.${String(key)}`);
  }
}

function expectAsJsonParse(text: string): void {
  const expected = outcome(JSON.parse, text);
  const actual = outcome(parseContextText, text);
  if ('error' in expected) expect(actual).toEqual(expected);
  else {
    expect('value' in actual, `${text} threw`).toBe(true);
    expectSame((actual as { value: unknown }).value, expected.value);
  }
}

describe('parseContextText', () => {
  it.each([
    '{"user":{"id":"user-1","plan":"pro","age":42,"beta":true,"tags":["a","b"]},"company":{"id":"c-1"},"other":{}}',
    ' \t\n{ "a" : [ 1 , -2.5e+3 , 0 , -0 , 1E-2 , null , false ] , "b" : { } , "c" : [ ] }\r\n',
    '{"a":1,"a":2,"b":3,"a":4}',
    '{"b":1,"1":2,"0":3,"-1":4,"01":5}',
    '{"__proto__":{"polluted":true}}',
    '{"x":{"__proto__":1}}',
    '{"toString":"x","constructor":1,"hasOwnProperty":null}',
    '{"a":"caf\u00e9 \u20ac \ud83d\ude00 \ud800 \u2028"}',
    '{"a":"with \\"escape\\"","b":"\\u0041"}',
    '{"a":"raw \u0001 control"}',
    '1e400',
    '-1e400',
    '123456789012345678901234567890',
    '0.1',
    '"text"',
    '[]',
    'null',
    'true',
    '',
    ' ',
    '01',
    '1.',
    '.5',
    '-',
    '+1',
    '1e',
    '1e+',
    '0x10',
    'NaN',
    'Infinity',
    'tru',
    'nul',
    'truex',
    '[1,]',
    '[,1]',
    '{"a":1,}',
    '{,}',
    '{"a" 1}',
    '{"a":}',
    '{a:1}',
    "{'a':1}",
    '{"a":1}}',
    '{"a":1} x',
    '{"a":[1,2}',
    '{"a":"unterminated',
    '{"unterminated',
    `${'['.repeat(40)}${']'.repeat(40)}`,
    `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`,
  ])('reads %j as JSON.parse does', (text) => {
    expectAsJsonParse(text);
  });

  it('leaves deep nesting to JSON.parse, without using up the stack', () => {
    expectAsJsonParse(`${'['.repeat(2000)}${']'.repeat(2000)}`);
    expectAsJsonParse(`${'{"a":'.repeat(2000)}null${'}'.repeat(2000)}`);
  });

  it('reads each key afresh, whatever the last text had at its position', () => {
    // The position cache must not match a key that merely starts like the last one, or a longer one.
    for (const text of ['{"ab":1}', '{"abc":2}', '{"a":3}', '{"ab":4}', '{"a\\u0062":5}', '{"ab" :6}', '{"x":{"ab":7,"a":8}}', '{"ab":9}']) {
      expectAsJsonParse(text);
    }
  });

  it('agrees with JSON.parse on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom('', ' ', '\n\t '), (value, space) => {
        expectAsJsonParse(JSON.stringify(value, null, space));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with JSON.parse on broken JSON', () => {
    const mutated = fc
      .tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '\\', '-', '0', ' ', 'e', '\u0000'), fc.nat(3))
      .map(([value, at, insert, cut]) => {
        const text = JSON.stringify(value);
        const i = text.length ? at % text.length : 0;
        return text.slice(0, i) + insert + text.slice(i + cut);
      });
    fc.assert(
      fc.property(mutated, (text) => expectAsJsonParse(text)),
      { numRuns: 3000 },
    );
  });
});
