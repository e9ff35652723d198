import { describe, expect, it } from 'vitest';
import type { FlagHeader } from '../src/api/types.js';
import { staleness } from '../src/lib/staleness.js';

const NOW = Date.parse('2026-06-30T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW - n * 86_400_000).toISOString();
const flag = (over: Partial<FlagHeader>): FlagHeader => ({
  id: 'f',
  key: 'k',
  name: 'K',
  archived: false,
  stale: true,
  permanent: false,
  codeRefsCleanedUp: false,
  noRecentChecks: true,
  createdAt: daysAgo(0),
  ...over,
});

describe('staleness label', () => {
  it('calls a brand-new, never-checked flag "new", not stale (the API does count it as stale)', () => {
    expect(staleness(flag({}), NOW)).toMatchObject({ label: 'new', reason: expect.stringMatching(/within 30 days of its creation/) });
    expect(staleness(flag({ createdAt: daysAgo(29) }), NOW).label).toBe('new');
  });

  it('is stale once the window has passed without checks, or after a long rollout to everyone; says why', () => {
    expect(staleness(flag({ createdAt: daysAgo(31) }), NOW)).toMatchObject({ label: 'stale', reason: expect.stringMatching(/No code has ever checked it/) });
    const rolled = flag({ createdAt: daysAgo(90), lastCheckAt: daysAgo(1), noRecentChecks: false, rolledOutToEveryoneAt: daysAgo(40) });
    expect(staleness(rolled, NOW)).toMatchObject({ label: 'stale', reason: expect.stringMatching(/Rolled out to everyone/) });
  });

  it('follows the server: active, permanent and archived are never stale; the window is configurable', () => {
    expect(staleness(flag({ stale: false, noRecentChecks: false, lastCheckAt: daysAgo(2) }), NOW).label).toBe('active');
    expect(staleness(flag({ permanent: true, stale: false }), NOW).label).toBe('permanent');
    expect(staleness(flag({ archived: true, stale: false }), NOW).label).toBe('archived');
    expect(staleness(flag({ createdAt: daysAgo(10) }), NOW, 7).label).toBe('stale');
  });
});
