import type { ChangeNotice } from '@flagmount/core';
import { ChangeHub, silentLogger } from '@flagmount/storage-kysely';
import { describe, expect, it, vi } from 'vitest';

function hub() {
  const h = new ChangeHub(silentLogger);
  const seen: ChangeNotice[] = [];
  h.subscribe((n) => seen.push(n));
  return { h, seen };
}

describe('ChangeHub', () => {
  it('records a baseline from the first poll without announcing it; environments seen later are announced', () => {
    const { h, seen } = hub();
    h.observe([{ envId: 'a', version: 5 }]);
    expect(seen).toEqual([]);
    // A new environment starts at version 0: it must be announced too, or no replica ever loads it.
    h.observe([{ envId: 'a', version: 6 }, { envId: 'new', version: 2 }, { envId: 'zero', version: 0 }]);
    expect(seen).toEqual([
      { envId: 'a', version: 6 },
      { envId: 'new', version: 2 },
      { envId: 'zero', version: 0 },
    ]);
  });

  it('polls announce only rises nothing announced; a late notice for a polled version is dropped once', () => {
    const { h, seen } = hub();
    h.observe([{ envId: 'a', version: 1 }]);
    h.emit({ envId: 'a', version: 2 }, 'commit');
    h.observe([{ envId: 'a', version: 2 }]);
    expect(seen).toEqual([{ envId: 'a', version: 2 }]);
    h.observe([{ envId: 'a', version: 3 }]);
    h.emit({ envId: 'a', version: 3 }, 'commit');
    expect(seen).toEqual([{ envId: 'a', version: 2 }, { envId: 'a', version: 3 }]);
    // The same version published again on purpose still arrives.
    h.emit({ envId: 'a', version: 3 }, 'commit');
    expect(seen).toHaveLength(3);
  });

  it('explicit notices always arrive and reset what the poll compares against', () => {
    const { h, seen } = hub();
    h.observe([{ envId: 'a', version: 10 }]);
    h.emit({ envId: 'a', version: 4 }, 'explicit');
    h.observe([{ envId: 'a', version: 5 }]);
    expect(seen).toEqual([{ envId: 'a', version: 4 }, { envId: 'a', version: 5 }]);
  });

  it('isolates listeners: one throwing is logged, the others still hear; unsubscribe is idempotent', () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const h = new ChangeHub(logger);
    const seen: number[] = [];
    h.subscribe(() => {
      throw new Error('nope');
    });
    const off = h.subscribe((n) => seen.push(n.version));
    h.emit({ envId: 'a', version: 1 }, 'commit');
    off();
    off();
    h.emit({ envId: 'a', version: 2 }, 'commit');
    expect(seen).toEqual([1]);
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });
});
