import type { EnvironmentSnapshot, Filter, FlagDefinition } from '@flagmount/engine';
import type {
  EnvironmentRecord,
  FlagRecord,
  FlagTargetingRecord,
  SegmentRecord,
  SpecificTargetRecord,
  StageRecord,
  StoredRule,
} from '../storage/records.js';

/** What a snapshot is built from: one environment's rows as read from the store. */
export interface SnapshotSource {
  environment: EnvironmentRecord;
  flags: FlagRecord[];
  targeting: FlagTargetingRecord[];
  specificTargets: SpecificTargetRecord[];
  segments: SegmentRecord[];
  stages: StageRecord[];
}

export interface StageHeader {
  id: string;
  name: string;
  color: string;
  order: number;
}

/** One entry of `GET /features` (runtime-api.md, "Feature definition"). */
export interface FeatureDefinition {
  key: string;
  description: string | null;
  createdAt: string;
  link: string | null;
  targeting: { version: number; rules: Array<{ filter: Filter }> };
  config: { version: number; variants: Array<{ key: string; payload: unknown; filter: Filter }> };
  stage: StageHeader | null;
}

const ALWAYS: Filter = { type: 'constant', value: true };

/** Fills the rollout `key` (the flag key) wherever a rollout filter omits it, so every client hashes alike. */
export function withRolloutKeys(filter: Filter, flagKey: string): Filter {
  switch (filter.type) {
    case 'rolloutPercentage':
      return filter.key ? filter : { ...filter, key: flagKey };
    case 'group':
      return { ...filter, filters: filter.filters.map((f) => withRolloutKeys(f, flagKey)) };
    case 'negation':
      return { ...filter, filter: withRolloutKeys(filter.filter, flagKey) };
    default:
      return filter;
  }
}

/** A stored rule as served: the segment's filter AND-ed in front of the rule's own. */
export function expandRule(rule: StoredRule, segments: ReadonlyMap<string, SegmentRecord>, flagKey: string): Filter {
  const segment = rule.segmentId ? segments.get(rule.segmentId) : undefined;
  // A rule whose segment was deleted matches nobody rather than everybody.
  if (rule.segmentId && !segment) return { type: 'constant', value: false };
  const own = withRolloutKeys(rule.filter, flagKey);
  if (!segment) return own;
  const segmentFilter = segment.type === 'all' ? ALWAYS : withRolloutKeys(segment.filter, flagKey);
  return { type: 'group', operator: 'and', filters: [segmentFilter, own] };
}

/**
 * Specific targets come first as generated `ANY_OF` rules on `user.id` / `company.id`, so that Reflag SDKs
 * evaluating `/features` locally and our own engine reach the same answer.
 */
function specificTargetRules(targets: SpecificTargetRecord[]): Array<{ filter: Filter }> {
  const users = targets.filter((t) => t.entityType === 'user').map((t) => t.entityId);
  const companies = targets.filter((t) => t.entityType === 'company').map((t) => t.entityId);
  const rules: Array<{ filter: Filter }> = [];
  if (companies.length) rules.push({ filter: { type: 'context', field: 'company.id', operator: 'ANY_OF', values: companies } });
  if (users.length) rules.push({ filter: { type: 'context', field: 'user.id', operator: 'ANY_OF', values: users } });
  return rules;
}

export interface BuiltSnapshot {
  engine: EnvironmentSnapshot;
  features: FeatureDefinition[];
  /** Served (non-archived) flags by key. */
  flags: Map<string, FlagRecord>;
  stages: Map<string, StageHeader>;
}

export function buildSnapshot(source: SnapshotSource): BuiltSnapshot {
  const segments = new Map(source.segments.map((s) => [s.id, s]));
  const stages = new Map(
    source.stages.map((s) => [s.id, { id: s.id, name: s.name, color: s.color, order: s.order } satisfies StageHeader]),
  );
  const targetingByFlag = new Map(source.targeting.map((t) => [t.flagId, t]));
  const targetsByFlag = new Map<string, SpecificTargetRecord[]>();
  for (const target of source.specificTargets) {
    const list = targetsByFlag.get(target.flagId) ?? [];
    list.push(target);
    targetsByFlag.set(target.flagId, list);
  }

  const flags = new Map<string, FlagRecord>();
  const definitions: FlagDefinition[] = [];
  const features: FeatureDefinition[] = [];
  for (const flag of source.flags) {
    if (flag.archived) continue;
    flags.set(flag.key, flag);
    const targeting = targetingByFlag.get(flag.id);
    const rules = [
      ...specificTargetRules(targetsByFlag.get(flag.id) ?? []),
      ...(targeting?.rules ?? []).map((rule) => ({ filter: expandRule(rule, segments, flag.key) })),
    ];
    const variants = (targeting?.variants ?? []).map((v) => ({ ...v, filter: withRolloutKeys(v.filter, flag.key) }));
    const version = targeting?.version ?? 0;
    const configVersion = targeting?.configVersion ?? 0;
    definitions.push({
      key: flag.key,
      targetingVersion: version,
      rules,
      ...(variants.length ? { config: { version: configVersion, variants } } : {}),
    });
    features.push({
      key: flag.key,
      description: flag.description,
      createdAt: flag.createdAt,
      link: null,
      targeting: { version, rules },
      config: { version: configVersion, variants },
      stage: (flag.stageId && stages.get(flag.stageId)) || null,
    });
  }
  return {
    engine: { flagStateVersion: source.environment.flagStateVersion, flags: definitions },
    features,
    flags,
    stages,
  };
}
