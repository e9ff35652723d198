import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryPairs } from '../../src/http/query-string.js';

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
