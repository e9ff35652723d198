import fc from 'fast-check';
import parseQuery from 'fast-querystring';
import { describe, expect, it } from 'vitest';
import { queryPairs, queryPairsFromParsed } from '../../src/http/query-string.js';

const reference = (text: string) => [...new URLSearchParams(text)];

describe('queryPairs', () => {
  it.each([
    '',
    'a=1',
    'a=1&b=2&a=3',
    'a&b=&=c&&d==e',
    'contextJson=%7B%22user%22%3A%7B%22id%22%3A%22u%201%22%7D%7D&publishableKey=pub_x',
    'q=a+b%2Bc',
    'x=%E2%82%AC%F0%9F%98%80',
    '?a=1',
    '??a=1',
    'a=%zz&b=1',
    'a=%E2%82&b=1',
    'a=%ED%A0%80',
    'a=caf\u00e9&\u00e9=1',
    '&&&',
    '=',
  ])('reads %j as URLSearchParams does', (text) => {
    expect(queryPairs(text)).toEqual(reference(text));
  });

  it('agrees with URLSearchParams on any query', () => {
    const piece = fc.oneof(
      fc.constantFrom('&', '=', '+', '%', '%2', '%20', '%2B', '%26', '%3D', '%E2%82%AC', '%C3', '%FF', '?', 'é', '€'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        expect(queryPairs(text)).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
  });
});

// Fastify's default parser: what its `request.query` holds.
const fastify = (text: string) => parseQuery.parse(text);

describe('queryPairsFromParsed', () => {
  it('takes the usual SDK query from the parsed object', () => {
    const text = 'contextJson=%7B%22user%22%3A%7B%22id%22%3A%22u%201%22%7D%7D&publishableKey=pub_x';
    expect(queryPairsFromParsed(text, fastify(text))).toEqual(reference(text));
  });

  it.each([
    ['a repeated name', 'a=1&b=2&a=3'],
    ['a name that is an array index', 'b=1&2=x'],
    ['an escape that is not UTF-8', 'a=%E2%82&b=1'],
    ['a malformed escape', 'a=%zz'],
    ['a decoded plus', 'q=a%2Bb'],
    ['a leading ?', '?a=1'],
  ])('reads the text itself for %s', (_case, text) => {
    expect(queryPairsFromParsed(text, fastify(text))).toBeUndefined();
  });

  it.each([
    ['another delimiter', 'a=1;b=2', { a: '1', b: '2' }],
    ['a limit on the number of pairs', 'a=1&b=2', { a: '1' }],
    ['nested objects', 'a[b]=1', { a: { b: '1' } }],
    ['coerced types', 'n=1', { n: 1 }],
    ['no object', 'a=1', 'a=1'],
  ])("refuses another parser's result with %s", (_case, text, parsed) => {
    expect(queryPairsFromParsed(text, parsed)).toBeUndefined();
  });

  it('gives what URLSearchParams gives whenever it gives anything', () => {
    const piece = fc.oneof(
      fc.constantFrom('&', '=', '+', '%', '%2', '%20', '%2B', '%25', '%26', '%3D', '%E2%82%AC', '%C3', '%FF', '?', 'é', '€', '1'),
      fc.string({ maxLength: 4 }),
    );
    let taken = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        const pairs = queryPairsFromParsed(text, fastify(text));
        if (pairs === undefined) return;
        taken++;
        expect(pairs).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
    // Most random queries hold a repeat or an undecodable escape; enough do not for the property to say something.
    expect(taken).toBeGreaterThan(300);
  });
});
