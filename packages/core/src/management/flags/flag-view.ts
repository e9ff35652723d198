import type { Flag, FlagHeader } from '../../schemas/flag.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, FlagRecord, MemberRecord, StageRecord } from '../../storage/records.js';
import { toStageHeader, toUserHeader } from '../views.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface FlagActivity {
  lastCheckAt: string | null;
  lastTrackAt: string | null;
}

/** What turning flag rows into flag headers needs, loaded once per request rather than once per flag. */
export interface FlagViewContext {
  stages: ReadonlyMap<string, StageRecord>;
  members: ReadonlyMap<string, MemberRecord>;
  activity: ReadonlyMap<string, FlagActivity>;
  now: Date;
  staleAfterDays: number;
}

const later = (a: string | null, b: string | null): string | null => {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
};

/** Latest check and track per flag key over `envIds` (every environment of the app unless narrowed). */
export async function loadActivity(repos: Repositories, envIds: string[]): Promise<Map<string, FlagActivity>> {
  const activity = new Map<string, FlagActivity>();
  if (!envIds.length) return activity;
  for (const row of await repos.stats.listFlagTotals(envIds)) {
    const prev = activity.get(row.flagKey);
    activity.set(row.flagKey, {
      lastCheckAt: later(prev?.lastCheckAt ?? null, row.lastCheckAt),
      lastTrackAt: later(prev?.lastTrackAt ?? null, row.lastTrackAt),
    });
  }
  return activity;
}

export async function loadFlagViewContext(
  repos: Repositories,
  app: AppRecord,
  options: { now: Date; staleAfterDays: number; envIds?: string[] },
): Promise<FlagViewContext> {
  const envIds = options.envIds ?? (await repos.environments.listByApp(app.id)).map((e) => e.id);
  const [stages, members, activity] = await Promise.all([
    repos.stages.listByApp(app.id),
    repos.members.listByOrg(app.orgId),
    loadActivity(repos, envIds),
  ]);
  return {
    stages: new Map(stages.map((s) => [s.id, s])),
    members: new Map(members.map((m) => [m.id, m])),
    activity,
    now: options.now,
    staleAfterDays: options.staleAfterDays,
  };
}

/** No check within the last `staleAfterDays` days (architecture.md). */
export function hasNoRecentChecks(lastCheckAt: string | null, now: Date, days: number): boolean {
  return !lastCheckAt || Date.parse(lastCheckAt) < now.getTime() - days * DAY_MS;
}

/**
 * Stale (architecture.md): not permanent, not archived, and either no recent checks or rolled out to everyone in
 * production for `staleAfterDays` days. "No recent checks" makes a flag stale only once it has existed for the
 * whole window: a flag created this morning has not had the chance to be checked yet, and calling it stale would
 * fill the stale filter with every flag just created (docs/api.md). `noRecentChecks` itself stays literal.
 */
export function isStale(flag: FlagRecord, noRecentChecks: boolean, now: Date, days: number): boolean {
  if (flag.permanent || flag.archived) return false;
  const windowStart = now.getTime() - days * DAY_MS;
  const hadTheWindow = Date.parse(flag.createdAt) <= windowStart;
  const rolledOutLongAgo = flag.rolledOutToEveryoneAt !== null && Date.parse(flag.rolledOutToEveryoneAt) <= windowStart;
  return (noRecentChecks && hadTheWindow) || rolledOutLongAgo;
}

/** Flag header: optional fields are omitted (never null), as the spec's schema has them. */
export function toFlagHeader(flag: FlagRecord, ctx: FlagViewContext): FlagHeader {
  const activity = ctx.activity.get(flag.key);
  const lastCheckAt = activity?.lastCheckAt ?? null;
  const noRecentChecks = hasNoRecentChecks(lastCheckAt, ctx.now, ctx.staleAfterDays);
  const header: FlagHeader = {
    id: flag.id,
    key: flag.key,
    name: flag.name,
    archived: flag.archived,
    stale: isStale(flag, noRecentChecks, ctx.now, ctx.staleAfterDays),
    permanent: flag.permanent,
    createdAt: flag.createdAt,
    codeRefsCleanedUp: flag.codeRefsCleanedUp,
    noRecentChecks,
  };
  if (flag.description !== null) header.description = flag.description;
  const stage = flag.stageId ? ctx.stages.get(flag.stageId) : undefined;
  if (stage) header.stage = toStageHeader(stage);
  const owner = flag.ownerUserId ? ctx.members.get(flag.ownerUserId) : undefined;
  if (owner) header.owner = toUserHeader(owner);
  if (flag.rolledOutToEveryoneAt) header.rolledOutToEveryoneAt = flag.rolledOutToEveryoneAt;
  if (flag.codeRefsMarkedCleanUserName) header.codeRefsMarkedCleanUserName = flag.codeRefsMarkedCleanUserName;
  if (flag.codeRefsMarkedCleanAt) header.codeRefsMarkedCleanAt = flag.codeRefsMarkedCleanAt;
  if (lastCheckAt) header.lastCheckAt = lastCheckAt;
  if (activity?.lastTrackAt) header.lastTrackAt = activity.lastTrackAt;
  return header;
}

export function toFlag(flag: FlagRecord, ctx: FlagViewContext): Flag {
  const result: Flag = toFlagHeader(flag, ctx);
  if (flag.parentFlagId) result.parentFlagId = flag.parentFlagId;
  return result;
}
