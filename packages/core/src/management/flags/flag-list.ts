import type { FlagHeader, FlagSortBy, ListFlagsQuery } from '../../schemas/flag.js';
import type { SortOrder } from '../../schemas/common.js';
import type { FlagRecord, StageRecord } from '../../storage/records.js';

/**
 * Filtering and sorting of row 3 (the spec lists the sortBy values but not their meaning: this file is that
 * meaning, and the README repeats it).
 *
 * Every sort is total and deterministic: flags with equal sort values keep key order (ascending, whatever
 * sortOrder says), and flags *without* a value (no stage, no owner, never checked, …) come last in both orders,
 * because "descending" should put the most recent activity first, not the flags that have none.
 */

/** environmentStatus of a flag in the status environment: not served / no targeting, some targeting, everyone. */
export type EnvironmentStatus = 'off' | 'targeted' | 'everyone';
const STATUS_RANK: Record<EnvironmentStatus, number> = { off: 0, targeted: 1, everyone: 2 };

export interface FlagListItem {
  flag: FlagRecord;
  header: FlagHeader;
  status: EnvironmentStatus;
}

type SortValue = string | number | null;

function sortValue(item: FlagListItem, sortBy: FlagSortBy, stages: ReadonlyMap<string, StageRecord>): SortValue {
  const { flag, header } = item;
  const time = (value: string | undefined) => (value ? Date.parse(value) : null);
  switch (sortBy) {
    case 'name':
      return header.name.toLowerCase();
    case 'key':
      return header.key;
    case 'stage':
      // By the stage's position in the app's pipeline, not its name.
      return flag.stageId ? (stages.get(flag.stageId)?.order ?? null) : null;
    case 'autoFeedbackSurveysEnabled':
      // Flagmount has no automatic feedback surveys: every flag has `false`, so this is key order.
      return 0;
    case 'createdAt':
      return time(header.createdAt);
    case 'rolledOutToEveryoneAt':
      return time(header.rolledOutToEveryoneAt);
    case 'environmentStatus':
      return STATUS_RANK[item.status];
    case 'owner':
      return header.owner ? header.owner.name.toLowerCase() : null;
    case 'lastCheck':
      return time(header.lastCheckAt);
    case 'lastTrack':
      return time(header.lastTrackAt);
    case 'stale':
      return header.stale ? 1 : 0;
    case 'archivingChecks':
      // How many archiving checks pass: no recent checks, code references cleaned up (0..2; ascending = least ready).
      return (header.noRecentChecks ? 1 : 0) + (header.codeRefsCleanedUp ? 1 : 0);
  }
}

const compareKeys = (a: FlagListItem, b: FlagListItem) =>
  a.flag.key < b.flag.key ? -1 : a.flag.key > b.flag.key ? 1 : a.flag.id < b.flag.id ? -1 : 1;

export function sortFlags(
  items: FlagListItem[],
  sortBy: FlagSortBy,
  sortOrder: SortOrder,
  stages: ReadonlyMap<string, StageRecord>,
): FlagListItem[] {
  const direction = sortOrder === 'desc' ? -1 : 1;
  const keyed = items.map((item) => ({ item, value: sortValue(item, sortBy, stages) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value === null && b.value === null) return compareKeys(a.item, b.item);
      return a.value === null ? 1 : -1;
    }
    if (a.value !== b.value) return (a.value < b.value ? -1 : 1) * direction;
    return compareKeys(a.item, b.item);
  });
  return keyed.map((k) => k.item);
}

export function filterFlags(items: FlagListItem[], query: ListFlagsQuery): FlagListItem[] {
  const search = query.search?.trim().toLowerCase();
  return items.filter(({ flag, header }) => {
    if (search) {
      const haystack = [flag.key, flag.name, flag.description ?? ''].map((s) => s.toLowerCase());
      if (!haystack.some((s) => s.includes(search))) return false;
    }
    if (query.stageId !== undefined && flag.stageId !== query.stageId) return false;
    if (query.ownerUserId !== undefined && flag.ownerUserId !== query.ownerUserId) return false;
    if (query.archived !== undefined && flag.archived !== query.archived) return false;
    if (query.permanent !== undefined && flag.permanent !== query.permanent) return false;
    if (query.stale !== undefined && header.stale !== query.stale) return false;
    return true;
  });
}
