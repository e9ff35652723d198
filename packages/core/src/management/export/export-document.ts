import { canonicalJson } from '../canonical-json.js';
import { EXPORT_FORMAT_VERSION, type ExportDocument, type ExportFlag, type ExportSchedule } from '../../schemas/export.js';
import type { TargetingBody } from '../../schemas/targeting.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, EnvironmentRecord, FlagRecord, SegmentRecord } from '../../storage/records.js';
import { byText, exportScheduleTargeting, exportTargeting, sortedKeys } from './targeting-form.js';

/**
 * A flag's pending schedules, environment name → schedules by `at`, then by targeting (never by id: ids differ
 * between stores). Settled schedules are history, not setup. Left out, because they could not be scheduled now and
 * fail when due: those of an archived flag, and those naming a deleted segment or a flag that is archived or gone.
 */
export async function exportSchedules(
  repos: Repositories,
  flag: FlagRecord,
  envs: readonly EnvironmentRecord[],
  segments: ReadonlyMap<string, SegmentRecord>,
  liveFlagKeys: ReadonlySet<string>,
): Promise<Record<string, ExportSchedule[]>> {
  if (flag.archived) return {};
  const rows = (await repos.schedules.listByFlag(flag.id)).filter((s) => s.status === 'pending');
  const out: Record<string, ExportSchedule[]> = {};
  for (const env of envs) {
    const schedules: ExportSchedule[] = [];
    for (const row of rows.filter((r) => r.envId === env.id)) {
      const body = row.targeting as TargetingBody;
      const targeting = exportScheduleTargeting(flag.key, body, segments);
      if (!targeting || targeting.prerequisites?.some((p) => !liveFlagKeys.has(p.flagKey))) continue;
      schedules.push({ at: row.at, targeting });
    }
    schedules.sort((a, b) => byText(a.at, b.at) || byText(canonicalJson(a.targeting), canonicalJson(b.targeting)));
    if (schedules.length) out[env.name] = schedules;
  }
  return out;
}


/** The app's setup, deterministic: see `ExportDocumentSchema`. */
export async function buildExport(repos: Repositories, app: AppRecord): Promise<ExportDocument> {
  const [envs, stages, segments, flags] = await Promise.all([
    repos.environments.listByApp(app.id),
    repos.stages.listByApp(app.id),
    repos.segments.listByApp(app.id),
    repos.flags.listByApp(app.id),
  ]);
  envs.sort((a, b) => a.order - b.order || byText(a.name, b.name));
  const targetingByEnv = await Promise.all(
    envs.map(async (env) => new Map((await repos.targeting.listByEnv(env.id)).map((t) => [t.flagId, t]))),
  );
  const segmentById = new Map(segments.map((s) => [s.id, s]));
  const stageById = new Map(stages.map((s) => [s.id, s]));
  const liveFlagKeys = new Set(flags.filter((f) => !f.archived).map((f) => f.key));
  const schedules = await Promise.all(flags.map((flag) => exportSchedules(repos, flag, envs, segmentById, liveFlagKeys)));
  const schedulesOf = new Map(flags.map((flag, i) => [flag.id, schedules[i]!]));
  const exportFlag = (flag: (typeof flags)[number]): ExportFlag => ({
    key: flag.key,
    name: flag.name,
    description: flag.description,
    stage: (flag.stageId && stageById.get(flag.stageId)?.name) || null,
    permanent: flag.permanent,
    secret: flag.secret,
    archived: flag.archived,
    targeting: Object.fromEntries(
      envs.map((env, i) => [env.name, exportTargeting(flag.key, targetingByEnv[i]!.get(flag.id), segmentById)]),
    ),
    schedules: schedulesOf.get(flag.id)!,
  });
  return {
    formatVersion: EXPORT_FORMAT_VERSION,
    app: { name: app.name, flagKeyFormat: app.flagKeyFormat },
    environments: envs.map((env) => ({ name: env.name, order: env.order, isProduction: env.isProduction })),
    stages: [...stages]
      .sort((a, b) => a.order - b.order || byText(a.name, b.name))
      .map((s) => ({ name: s.name, color: s.color, order: s.order })),
    segments: [...segments]
      .sort((a, b) => byText(a.name, b.name))
      .map((s) => ({ name: s.name, type: s.type, filter: sortedKeys(s.filter) })),
    flags: [...flags].sort((a, b) => byText(a.key, b.key)).map(exportFlag),
  };
}
