import { describe, expect, it } from 'vitest';
import type { FlagHeader } from '../src/api/types.js';
import { staleness } from '../src/lib/staleness.js';

const NOW = Date.parse('2026-06-30T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW - n * 86_400_000).toISOString();
/** A flag as the API answers it: a brand-new one is not stale (docs/api.md), though it has no recent checks. */
const flag = (over: Partial<FlagHeader>): FlagHeader => ({
  id: 'f',
  key: 'k',
  name: 'K',
  archived: false,
  stale: false,
  permanent: false,
  codeRefsCleanedUp: false,
  noRecentChecks: true,
  createdAt: daysAgo(0),
  ...over,
});

describe('staleness label', () => {
  it('calls a brand-new, never-checked flag "new" (the API says not stale) and says when it would become stale', () => {
    expect(staleness(flag({}), NOW, 30)).toMatchObject({ label: 'new', reason: expect.stringMatching(/not checked by any code yet.*within 30 days of its creation/) });
    expect(staleness(flag({ createdAt: daysAgo(29) }), NOW, 30).label).toBe('new');
    // Checked only before it was created (a check counts under its key before the flag exists): still new.
    expect(staleness(flag({ createdAt: daysAgo(3), lastCheckAt: daysAgo(40) }), NOW, 30)).toMatchObject({ label: 'new', reason: expect.stringMatching(/last check 40 days ago/) });
  });

  it('follows the API’s stale: stale once it is, and says why (never checked, no recent checks, rolled out long ago)', () => {
    expect(staleness(flag({ createdAt: daysAgo(31), stale: true }), NOW, 30)).toMatchObject({ label: 'stale', reason: expect.stringMatching(/No code has ever checked it/) });
    expect(staleness(flag({ createdAt: daysAgo(90), stale: true, lastCheckAt: daysAgo(45) }), NOW, 30)).toMatchObject({
      label: 'stale',
      reason: expect.stringMatching(/No code has checked it in 30 days \(last check 45 days ago\)/),
    });
    const rolled = flag({ createdAt: daysAgo(90), stale: true, lastCheckAt: daysAgo(1), noRecentChecks: false, rolledOutToEveryoneAt: daysAgo(40) });
    expect(staleness(rolled, NOW, 30)).toMatchObject({ label: 'stale', reason: expect.stringMatching(/Rolled out to everyone/) });
    // The label never contradicts the API: a young flag the API calls stale (a host with a shorter window) is stale.
    expect(staleness(flag({ createdAt: daysAgo(10), stale: true }), NOW, 7).label).toBe('stale');
  });

  it('active, permanent and archived are never stale; without a known window the reason names none', () => {
    expect(staleness(flag({ noRecentChecks: false, lastCheckAt: daysAgo(2) }), NOW, 30).label).toBe('active');
    expect(staleness(flag({ permanent: true, createdAt: daysAgo(90) }), NOW).label).toBe('permanent');
    expect(staleness(flag({ archived: true, createdAt: daysAgo(90) }), NOW).label).toBe('archived');
    expect(staleness(flag({}), NOW).reason).toMatch(/within the stale window of its creation/);
  });
});
