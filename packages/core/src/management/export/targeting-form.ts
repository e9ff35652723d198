import type { ConfigVariant, Filter } from '@flagmount/engine';
import { withRolloutKeys } from '../../domain/rollout-keys.js';
import type { ExportPrerequisite, ExportTargeting, ExportTargetingBody } from '../../schemas/export.js';
import type { TargetingBody } from '../../schemas/targeting.js';
import type { FlagTargetingRecord, SegmentRecord, StoredRule } from '../../storage/records.js';

/**
 * Targeting as an export document writes it, and back: segments by name, prerequisites by flag key in key order,
 * filters with their rollout keys filled in and their object keys sorted. One form for stored targeting and for a
 * schedule's, so that an import compares what a file says with what is stored in the very shape it exports.
 */

export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A value with its object keys sorted, so that two stores holding the same filter export the same bytes whatever
 * order its keys were written in.
 */
export function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => byText(a, b));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortedKeys(v)])) as T;
}

/** Prerequisites are AND-ed: their order means nothing, so they travel and are stored in key order. */
export const sortedPrerequisites = (prerequisites: readonly ExportPrerequisite[]): ExportPrerequisite[] =>
  [...prerequisites].sort((a, b) => byText(a.flagKey, b.flagKey)).map((p) => ({ flagKey: p.flagKey, isEnabled: p.isEnabled }));

const exportFilter = (filter: Filter, flagKey: string) => sortedKeys(withRolloutKeys(filter, flagKey));
const exportVariants = (variants: readonly ConfigVariant[], flagKey: string): ConfigVariant[] =>
  variants.map((v) => ({ key: v.key, payload: sortedKeys(v.payload), filter: exportFilter(v.filter, flagKey) }));

/** Rules with their segment named; `undefined` when a segment no longer exists (with `strict`), else dropped. */
function exportRules(flagKey: string, rules: readonly StoredRule[], segments: ReadonlyMap<string, SegmentRecord>, strict: boolean) {
  const out: ExportTargetingBody['rules'] = [];
  for (const rule of rules) {
    const name = rule.segmentId ? segments.get(rule.segmentId)?.name : undefined;
    if (rule.segmentId && name === undefined && strict) return undefined;
    out.push(name === undefined ? { filter: exportFilter(rule.filter, flagKey) } : { filter: exportFilter(rule.filter, flagKey), segment: name });
  }
  return out;
}

export function exportTargeting(
  flagKey: string,
  record: FlagTargetingRecord | undefined,
  segments: ReadonlyMap<string, SegmentRecord>,
): ExportTargeting {
  return {
    rules: exportRules(flagKey, record?.rules ?? [], segments, false)!,
    config: { variants: exportVariants(record?.variants ?? [], flagKey) },
    prerequisites: sortedPrerequisites(record?.prerequisites ?? []),
  };
}

/**
 * A schedule's targeting body (as stored: segments by id) in export form, keeping `config` and `prerequisites` only
 * when it has them (omitted, they keep what is stored when it applies). `undefined` when it names a deleted segment.
 */
export function exportScheduleTargeting(
  flagKey: string,
  body: TargetingBody,
  segments: ReadonlyMap<string, SegmentRecord>,
): ExportTargetingBody | undefined {
  const rules = exportRules(flagKey, body.rules, segments, true);
  if (!rules) return undefined;
  return {
    rules,
    ...(body.config ? { config: { variants: exportVariants(body.config.variants, flagKey) } } : {}),
    ...(body.prerequisites ? { prerequisites: sortedPrerequisites(body.prerequisites) } : {}),
  };
}

/** A document's targeting body as a PUT would send it: segments by id (every name resolved), rollout keys filled in. */
export function importedBody(flagKey: string, body: ExportTargetingBody, segmentId: (name: string) => string): TargetingBody {
  const rules: StoredRule[] = body.rules.map((r) => {
    const filter = withRolloutKeys(r.filter, flagKey);
    return r.segment === undefined ? { filter } : { filter, segmentId: segmentId(r.segment) };
  });
  return {
    rules,
    ...(body.config ? { config: { variants: body.config.variants.map((v) => ({ ...v, filter: withRolloutKeys(v.filter, flagKey) })) } } : {}),
    ...(body.prerequisites ? { prerequisites: sortedPrerequisites(body.prerequisites) } : {}),
  };
}
