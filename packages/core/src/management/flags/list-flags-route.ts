import { notPossible } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { AppParamsSchema } from '../../schemas/common.js';
import {
  FLAG_PAGE_SIZE_DEFAULT,
  ListFlagsQuerySchema,
  ListFlagsResponseSchema,
  type FlagSortBy,
} from '../../schemas/flag.js';
import type { SortOrder } from '../../schemas/common.js';
import type { Repositories } from '../../storage/port.js';
import type { EnvironmentRecord, FlagRecord } from '../../storage/records.js';
import { loadApp } from '../access.js';
import { targetingMatchesEveryone } from '../targeting/everyone.js';
import { filterFlags, sortFlags, type EnvironmentStatus, type FlagListItem } from './flag-list.js';
import { loadFlagViewContext, toFlagHeader } from './flag-view.js';

/** Row 3. Paging, sorting and filtering are Flagmount's design (the spec does not show them): see flag-list.ts. */
export const listFlagsRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/flags',
  operationId: 'listFlags',
  summary: 'List the flags of an app',
  surface: 'management',
  tags: ['Flags'],
  auth: { kind: 'management', scope: 'read' },
  params: AppParamsSchema,
  query: ListFlagsQuerySchema,
  response: ListFlagsResponseSchema,
  async handle({ params, query, principal, services }) {
    const repos = services.storage;
    const app = await loadApp(repos, principal, params.appId);
    const envs = await repos.environments.listByApp(app.id);
    let activityEnvs = envs;
    if (query.envId !== undefined) {
      activityEnvs = envs.filter((e) => e.id === query.envId);
      if (!activityEnvs.length) throw notPossible(`Environment ${query.envId} is not an environment of this app`, { envId: ['unknown environment'] });
    }
    const [flags, ctx] = await Promise.all([
      repos.flags.listByApp(app.id),
      loadFlagViewContext(repos, app, {
        now: services.now(),
        staleAfterDays: services.options.staleAfterDays,
        envIds: activityEnvs.map((e) => e.id),
      }),
    ]);
    const sortBy: FlagSortBy = query.sortBy ?? 'key';
    const sortOrder: SortOrder = query.sortOrder ?? 'asc';
    const pageSize = query.pageSize ?? FLAG_PAGE_SIZE_DEFAULT;
    const pageIndex = query.pageIndex ?? 0;

    const statusEnv = query.envId !== undefined ? activityEnvs[0] : (envs.find((e) => e.isProduction) ?? envs[0]);
    // Targeting is read only when the sort needs it: the common list stays one query per table.
    const statuses = sortBy === 'environmentStatus' ? await environmentStatuses(repos, app.id, statusEnv, flags) : undefined;
    const items: FlagListItem[] = flags.map((flag) => ({
      flag,
      header: toFlagHeader(flag, ctx),
      status: statuses?.get(flag.id) ?? 'off',
    }));
    const selected = sortFlags(filterFlags(items, query), sortBy, sortOrder, ctx.stages);
    const page = selected.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize);
    return { data: page.map((i) => i.header), totalCount: selected.length, pageSize, pageIndex, sortBy, sortOrder };
  },
});

export async function environmentStatuses(
  repos: Repositories,
  appId: string,
  env: EnvironmentRecord | undefined,
  flags: FlagRecord[],
): Promise<Map<string, EnvironmentStatus>> {
  const statuses = new Map<string, EnvironmentStatus>();
  if (!env) return statuses;
  const [targeting, targets, segments] = await Promise.all([
    repos.targeting.listByEnv(env.id),
    repos.specificTargets.listByEnv(env.id),
    repos.segments.listByApp(appId),
  ]);
  const byFlag = new Map(targeting.map((t) => [t.flagId, t]));
  const segmentMap = new Map(segments.map((s) => [s.id, s]));
  const withTargets = new Set(targets.map((t) => t.flagId));
  for (const flag of flags) {
    const t = byFlag.get(flag.id);
    // Archived flags are not served anywhere, whatever their rules say.
    if (flag.archived) statuses.set(flag.id, 'off');
    else if (targetingMatchesEveryone(t, segmentMap)) statuses.set(flag.id, 'everyone');
    else if ((t?.rules.length ?? 0) > 0 || withTargets.has(flag.id)) statuses.set(flag.id, 'targeted');
    else statuses.set(flag.id, 'off');
  }
  return statuses;
}
