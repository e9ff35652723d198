import { afterEach, describe, expect, it, vi } from 'vitest';
import { newId, newOrderedId, newSecretKey, randomBase62 } from '../../src/domain/ids.js';

describe('ids', () => {
  it('are base62 of the asked length, across many refills of the random pool, and never repeat', () => {
    const seen = new Set<string>();
    // 3000 ids × ~13 bytes each crosses the 4 KiB pool several times.
    for (let i = 0; i < 3000; i++) {
      const id = newId('ev');
      expect(id).toMatch(/^ev[0-9A-Za-z]{12}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(3000);
    expect(randomBase62(0)).toBe('');
    expect(randomBase62(5000)).toMatch(/^[0-9A-Za-z]{5000}$/);
    expect(newSecretKey()).toMatch(/^sec_fm_[0-9A-Za-z]{29}$/);
  });

  it('use every base62 character about equally (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const text = randomBase62(62 * 2000);
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 2000 each (σ ≈ 44): a character missing or doubled by a wrong mapping is far outside.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(300);
  });

  describe('newOrderedId', () => {
    afterEach(() => vi.restoreAllMocks());

    // Collation-proof: what a store compares is the sortable part, digits and lowercase letters of one length.
    const sortable = (id: string) => id.slice(0, 13);

    it('sorts after every earlier id of the process: within a millisecond, past 1296 in one, and when the clock steps back', () => {
      let clock = Date.now();
      vi.spyOn(Date, 'now').mockImplementation(() => clock);
      const ids: string[] = [];
      for (let i = 0; i < 3000; i++) ids.push(newOrderedId('au'));
      clock -= 60_000;
      for (let i = 0; i < 10; i++) ids.push(newOrderedId('au'));
      clock += 120_000;
      ids.push(newOrderedId('au'));
      for (const id of ids) expect(id).toMatch(/^au[0-9a-z]{11}[0-9A-Za-z]{8}$/);
      for (let i = 1; i < ids.length; i++) expect(sortable(ids[i]!) > sortable(ids[i - 1]!)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('starts with the time, so ids of two processes in different milliseconds sort by time', () => {
      vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2090, 0, 1));
      const late = newOrderedId('au');
      expect(parseInt(late.slice(2, 11), 36)).toBe(Date.UTC(2090, 0, 1));
    });
  });
});
