import type { FlagHeader } from '../api/types.js';
import { ago, daysBetween } from './format.js';

/**
 * The server's stale window (`staleAfterDays`): 30 days unless the host changed it; the flag page knows the real one. The API calls a flag that nobody
 * has checked yet stale, since no code reads it; the dashboard does not shout "stale" at a flag created this
 * week: until the window has passed since creation, such a flag is "new".
 */
export const STALE_WINDOW_DAYS = 30;

export type Staleness = { label: 'stale' | 'new' | 'active' | 'permanent' | 'archived'; reason: string };

export function staleness(flag: FlagHeader, now = Date.now(), windowDays = STALE_WINDOW_DAYS): Staleness {
  if (flag.archived) return { label: 'archived', reason: 'Archived flags are never stale: they are served nowhere.' };
  if (flag.permanent) return { label: 'permanent', reason: 'Permanent flags (kill switches, entitlements) are never stale.' };
  const young = flag.createdAt !== undefined && daysBetween(flag.createdAt, now) < windowDays;
  if (!flag.lastCheckAt && young) {
    return {
      label: 'new',
      reason: `Created ${ago(flag.createdAt, now)} and not checked by any code yet. It becomes stale if nothing checks it within ${windowDays} days of its creation.`,
    };
  }
  if (!flag.stale) {
    return { label: 'active', reason: `Checked ${ago(flag.lastCheckAt, now)}, and not rolled out to everyone in production for ${windowDays} days.` };
  }
  if (flag.noRecentChecks) {
    return {
      label: 'stale',
      reason: flag.lastCheckAt
        ? `No code has checked it in ${windowDays} days (last check ${ago(flag.lastCheckAt, now)}): it may be dead code.`
        : 'No code has ever checked it: it may never have shipped, or its code is gone.',
    };
  }
  return {
    label: 'stale',
    reason: `Rolled out to everyone in production since ${ago(flag.rolledOutToEveryoneAt, now)}: remove it from the code, or mark it permanent.`,
  };
}
