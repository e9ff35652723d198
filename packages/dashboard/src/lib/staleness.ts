import type { FlagHeader } from '../api/types.js';
import { ago } from './format.js';

export type Staleness = { label: 'stale' | 'new' | 'active' | 'permanent' | 'archived'; reason: string };

/**
 * The flag's health as the API decides it: `stale` is the server's own field (the list's stale filter and sort use
 * the same one), so the badge, the filter and the flag page always agree. "new" is a kind of not stale: no check yet
 * (or none recently) but the flag is younger than the stale window (docs/api.md: it has not had the window yet).
 * `windowDays` is the server's `staleAfterDays` where the page knows it (the flag page does); it only words the reason.
 */
export function staleness(flag: FlagHeader, now = Date.now(), windowDays?: number): Staleness {
  if (flag.archived) return { label: 'archived', reason: 'Archived flags are never stale: they are served nowhere.' };
  if (flag.permanent) return { label: 'permanent', reason: 'Permanent flags (kill switches, entitlements) are never stale.' };
  const window = windowDays === undefined ? 'the stale window' : `${windowDays} days`;
  if (flag.stale) {
    if (flag.noRecentChecks) {
      return {
        label: 'stale',
        reason: flag.lastCheckAt
          ? `No code has checked it in ${window} (last check ${ago(flag.lastCheckAt, now)}): it may be dead code.`
          : 'No code has ever checked it: it may never have shipped, or its code is gone.',
      };
    }
    return {
      label: 'stale',
      reason: `Rolled out to everyone in production since ${ago(flag.rolledOutToEveryoneAt, now)}: remove it from the code, or mark it permanent.`,
    };
  }
  if (flag.noRecentChecks) {
    const checked = flag.lastCheckAt ? `not checked in ${window} (last check ${ago(flag.lastCheckAt, now)})` : 'not checked by any code yet';
    return {
      label: 'new',
      reason: `Created ${ago(flag.createdAt, now)} and ${checked}. It becomes stale if nothing checks it within ${window} of its creation.`,
    };
  }
  return { label: 'active', reason: `Checked ${ago(flag.lastCheckAt, now)}, and not rolled out to everyone in production for ${window}.` };
}
