import { describe, expect, it } from 'vitest';
import { canonicalJson, sameJson } from '../../src/management/canonical-json.js';
import { flagKeyFormatProblem } from '../../src/management/flags/flag-key-format.js';
import { filterFlags, sortFlags, type FlagListItem } from '../../src/management/flags/flag-list.js';
import { hasNoRecentChecks, isStale, toFlagHeader, type FlagViewContext } from '../../src/management/flags/flag-view.js';
import { filterMatchesEveryone, ruleMatchesEveryone } from '../../src/management/targeting/everyone.js';
import { isHtmlColor } from '../../src/schemas/stage.js';
import type { FlagRecord, SegmentRecord } from '../../src/storage/records.js';
import { flag as flagRecord } from '@flagmount/storage-conformance';

const NOW = new Date('2025-06-30T12:00:00.000Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

function flag(overrides: Partial<FlagRecord> = {}): FlagRecord {
  return flagRecord({
    id: 'fl' + (overrides.key ?? 'x').padEnd(12, '0').slice(0, 12),
    appId: 'ap1',
    key: 'x',
    name: 'X',
    createdAt: daysAgo(100),
    updatedAt: daysAgo(100),
    ...overrides,
  });
}

const ctx = (activity: Record<string, { lastCheckAt: string | null; lastTrackAt: string | null }> = {}): FlagViewContext => ({
  stages: new Map([
    ['st1', { id: 'st1', appId: 'ap1', name: 'Beta', color: 'red', order: 2 }],
    ['st0', { id: 'st0', appId: 'ap1', name: 'Alpha', color: 'red', order: 1 }],
  ]),
  members: new Map([
    ['m1', { id: 'm1', orgId: 'o', name: 'Zoe', email: 'z@x.io', avatarUrl: null }],
    ['m2', { id: 'm2', orgId: 'o', name: 'adam', email: 'a@x.io', avatarUrl: 'https://x.io/a.png' }],
  ]),
  activity: new Map(Object.entries(activity)),
  now: NOW,
  staleAfterDays: 30,
});

describe('flag key formats', () => {
  const cases: Array<[string, string, boolean]> = [
    ['pascalCase', 'NewCheckout', true],
    ['pascalCase', 'newCheckout', false],
    ['camelCase', 'newCheckout2', true],
    ['camelCase', 'New', false],
    ['camelCase', 'new_checkout', false],
    ['snakeCaseUpper', 'NEW_CHECKOUT', true],
    ['snakeCaseUpper', 'NEW__CHECKOUT', false],
    ['snakeCaseUpper', 'new_checkout', false],
    ['snakeCaseLower', 'new_checkout_2', true],
    ['snakeCaseLower', '_new', false],
    ['kebabCaseUpper', 'NEW-CHECKOUT', true],
    ['kebabCaseUpper', 'NEW-checkout', false],
    ['kebabCaseLower', 'new-checkout', true],
    ['kebabCaseLower', 'new-checkout-', false],
    ['kebabCaseLower', '1-new', false],
    ['custom', 'Any thing/goes.here', true],
    ['custom', ' padded', false],
    ['custom', 'tab\there', false],
  ];
  it.each(cases)('%s accepts %s: %s', (format, key, ok) => {
    expect(flagKeyFormatProblem(key, format as never) === undefined).toBe(ok);
  });
});

describe('everyone detection', () => {
  const segments = new Map<string, SegmentRecord>([
    ['all', { id: 'all', appId: 'a', name: 'All', type: 'all', filter: { type: 'constant', value: true }, createdAt: '', updatedAt: '' }],
    ['vip', { id: 'vip', appId: 'a', name: 'VIP', type: 'custom', filter: { type: 'context', field: 'company.tier', operator: 'IS', values: ['vip'] }, createdAt: '', updatedAt: '' }],
  ]);
  it('recognises constant true, 100000 rollouts, and/or groups, negated false', () => {
    expect(filterMatchesEveryone({ type: 'constant', value: true })).toBe(true);
    expect(filterMatchesEveryone({ type: 'constant', value: false })).toBe(false);
    expect(filterMatchesEveryone({ type: 'rolloutPercentage', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 100000 })).toBe(true);
    expect(filterMatchesEveryone({ type: 'rolloutPercentage', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 99999 })).toBe(false);
    expect(filterMatchesEveryone({ type: 'group', operator: 'and', filters: [] })).toBe(true);
    expect(filterMatchesEveryone({ type: 'group', operator: 'or', filters: [] })).toBe(false);
    expect(filterMatchesEveryone({ type: 'group', operator: 'or', filters: [{ type: 'constant', value: false }, { type: 'constant', value: true }] })).toBe(true);
    expect(filterMatchesEveryone({ type: 'negation', filter: { type: 'constant', value: false } })).toBe(true);
    expect(filterMatchesEveryone({ type: 'context', field: 'user.id', operator: 'SET', values: [] })).toBe(false);
  });
  it('takes the segment into account', () => {
    const always = { type: 'constant', value: true } as const;
    expect(ruleMatchesEveryone({ filter: always, segmentId: 'all' }, segments)).toBe(true);
    expect(ruleMatchesEveryone({ filter: always, segmentId: 'vip' }, segments)).toBe(false);
    expect(ruleMatchesEveryone({ filter: always, segmentId: 'gone' }, segments)).toBe(false);
  });
});

describe('flag header', () => {
  it('omits absent optional fields and computes activity markers', () => {
    const header = toFlagHeader(flag({ key: 'a', ownerUserId: 'm1', stageId: 'st1' }), ctx({ a: { lastCheckAt: daysAgo(1), lastTrackAt: null } }));
    expect(header).toEqual({
      id: expect.any(String),
      key: 'a',
      name: 'X',
      archived: false,
      stale: false,
      permanent: false,
      createdAt: daysAgo(100),
      codeRefsCleanedUp: false,
      noRecentChecks: false,
      lastCheckAt: daysAgo(1),
      stage: { id: 'st1', name: 'Beta', color: 'red', order: 2 },
      owner: { id: 'm1', name: 'Zoe', email: 'z@x.io' },
    });
  });

  it('noRecentChecks: no check within staleAfterDays', () => {
    expect(hasNoRecentChecks(null, NOW, 30)).toBe(true);
    expect(hasNoRecentChecks(daysAgo(29), NOW, 30)).toBe(false);
    expect(hasNoRecentChecks(daysAgo(31), NOW, 30)).toBe(true);
  });

  it('stale: not for permanent or archived flags; yes for unchecked or long rolled-out ones', () => {
    expect(isStale(flag(), true, NOW, 30)).toBe(true);
    expect(isStale(flag({ permanent: true }), true, NOW, 30)).toBe(false);
    expect(isStale(flag({ archived: true }), true, NOW, 30)).toBe(false);
    expect(isStale(flag({ permanent: true, rolledOutToEveryoneAt: daysAgo(31) }), false, NOW, 30)).toBe(false);
    expect(isStale(flag({ archived: true, rolledOutToEveryoneAt: daysAgo(31) }), false, NOW, 30)).toBe(false);
    expect(isStale(flag(), false, NOW, 30)).toBe(false);
    expect(isStale(flag({ rolledOutToEveryoneAt: daysAgo(31) }), false, NOW, 30)).toBe(true);
    expect(isStale(flag({ rolledOutToEveryoneAt: daysAgo(29) }), false, NOW, 30)).toBe(false);
  });

  it('stale: a flag younger than the window is not stale for lack of checks (it has not had the window yet)', () => {
    expect(isStale(flag({ createdAt: daysAgo(0) }), true, NOW, 30)).toBe(false);
    expect(isStale(flag({ createdAt: daysAgo(2) }), true, NOW, 30)).toBe(false);
    expect(isStale(flag({ createdAt: daysAgo(29.9) }), true, NOW, 30)).toBe(false);
    expect(isStale(flag({ createdAt: daysAgo(30) }), true, NOW, 30)).toBe(true);
    expect(isStale(flag({ createdAt: daysAgo(31) }), true, NOW, 30)).toBe(true);
    // The window is the host's `staleAfterDays`.
    expect(isStale(flag({ createdAt: daysAgo(10) }), true, NOW, 7)).toBe(true);
    expect(isStale(flag({ createdAt: daysAgo(10) }), true, NOW, 14)).toBe(false);
    // The header: noRecentChecks stays literal, stale waits for the window.
    const young = toFlagHeader(flag({ key: 'y', createdAt: daysAgo(1) }), ctx());
    expect([young.noRecentChecks, young.stale]).toEqual([true, false]);
    const old = toFlagHeader(flag({ key: 'o', createdAt: daysAgo(31) }), ctx());
    expect([old.noRecentChecks, old.stale]).toEqual([true, true]);
  });
});

describe('flag list sorting and filtering', () => {
  const c = ctx({ b: { lastCheckAt: daysAgo(3), lastTrackAt: null }, c: { lastCheckAt: daysAgo(1), lastTrackAt: daysAgo(1) } });
  const items: FlagListItem[] = [
    flag({ key: 'c', name: 'banana', stageId: 'st0', ownerUserId: 'm2', createdAt: daysAgo(1) }),
    flag({ key: 'a', name: 'Cherry', stageId: 'st1', createdAt: daysAgo(40) }),
    flag({ key: 'b', name: 'apple', ownerUserId: 'm1', createdAt: daysAgo(2), permanent: true, description: 'The Fruit' }),
  ].map((f, i) => ({ flag: f, header: toFlagHeader(f, c), status: (['off', 'everyone', 'targeted'] as const)[i]! }));
  const keys = (list: FlagListItem[]) => list.map((i) => i.flag.key);

  it.each([
    ['key', 'asc', ['a', 'b', 'c']],
    ['key', 'desc', ['c', 'b', 'a']],
    ['name', 'asc', ['b', 'c', 'a']],
    ['stage', 'asc', ['c', 'a', 'b']],
    ['stage', 'desc', ['a', 'c', 'b']],
    ['owner', 'asc', ['c', 'b', 'a']],
    ['owner', 'desc', ['b', 'c', 'a']],
    ['createdAt', 'desc', ['c', 'b', 'a']],
    ['lastCheck', 'desc', ['c', 'b', 'a']],
    ['lastCheck', 'asc', ['b', 'c', 'a']],
    ['lastTrack', 'asc', ['c', 'a', 'b']],
    ['environmentStatus', 'desc', ['a', 'b', 'c']],
    ['autoFeedbackSurveysEnabled', 'desc', ['a', 'b', 'c']],
    ['rolledOutToEveryoneAt', 'asc', ['a', 'b', 'c']],
    ['stale', 'asc', ['b', 'c', 'a']],
    ['archivingChecks', 'asc', ['b', 'c', 'a']],
  ] as const)('sortBy %s %s', (sortBy, order, expected) => {
    expect(keys(sortFlags(items, sortBy, order, c.stages))).toEqual(expected);
  });

  it('filters by search (key, name, description), stage, owner, permanent, stale, archived', () => {
    expect(keys(filterFlags(items, { search: 'FRUIT' }))).toEqual(['b']);
    expect(keys(filterFlags(items, { search: 'an' }))).toEqual(['c']);
    expect(keys(filterFlags(items, { stageId: 'st1' }))).toEqual(['a']);
    expect(keys(filterFlags(items, { ownerUserId: 'm1' }))).toEqual(['b']);
    expect(keys(filterFlags(items, { permanent: true }))).toEqual(['b']);
    expect(keys(filterFlags(items, { archived: true }))).toEqual([]);
    expect(keys(filterFlags(items, { stale: true }))).toEqual(['a']);
  });
});

describe('helpers', () => {
  it('canonical JSON ignores key order but not array order', () => {
    expect(sameJson({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });
  it('HTML colors: names case-insensitively and hex codes', () => {
    for (const ok of ['red', 'RebeccaPurple', '#fff', '#ffff', '#a1b2c3', '#a1b2c3d4']) expect(isHtmlColor(ok)).toBe(true);
    for (const bad of ['reddish', '#ff', '#fffff', 'fff', '#ggg', '']) expect(isHtmlColor(bad)).toBe(false);
  });
});
