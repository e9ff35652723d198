import type { ConfigVariant, Filter } from '@flagmount/engine';
import { withRolloutKeys } from '../../domain/rollout-keys.js';
import { EXPORT_FORMAT_VERSION, type ExportDocument, type ExportFlag, type ExportTargeting } from '../../schemas/export.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, FlagTargetingRecord, SegmentRecord } from '../../storage/records.js';

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A filter with its object keys sorted, so that two stores holding the same filter export the same bytes whatever
 * order its keys were written in.
 */
export function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => byText(a, b));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortedKeys(v)])) as T;
}

export function exportTargeting(
  flagKey: string,
  record: FlagTargetingRecord | undefined,
  segments: ReadonlyMap<string, SegmentRecord>,
): ExportTargeting {
  const filter = (f: Filter) => sortedKeys(withRolloutKeys(f, flagKey));
  const rules = (record?.rules ?? []).map((rule) => {
    const name = rule.segmentId ? segments.get(rule.segmentId)?.name : undefined;
    return name === undefined ? { filter: filter(rule.filter) } : { filter: filter(rule.filter), segment: name };
  });
  const variants = (record?.variants ?? []).map(
    (v): ConfigVariant => ({ key: v.key, payload: sortedKeys(v.payload), filter: filter(v.filter) }),
  );
  return { rules, config: { variants } };
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
