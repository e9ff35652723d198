import { describe, expect, it } from 'vitest';
import { newId, newSecretKey, randomBase62 } from '../../src/domain/ids.js';

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
});
