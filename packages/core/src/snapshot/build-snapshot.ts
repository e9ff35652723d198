import type { EnvironmentSnapshot, Filter, FlagDefinition } from '@flagmount/engine';
import type {
  EnvironmentRecord,
  FlagRecord,
  FlagTargetingRecord,
  PrerequisiteRecord,
  SegmentRecord,
  SpecificTargetRecord,
  StageRecord,
  StoredRule,
} from '../storage/records.js';
import { withRolloutKeys } from '../domain/rollout-keys.js';
import type { Repositories } from '../storage/port.js';

/** What a snapshot is built from: one environment's rows as read from the store. */
export interface SnapshotSource {
  environment: EnvironmentRecord;
  flags: FlagRecord[];
  targeting: FlagTargetingRecord[];
  specificTargets: SpecificTargetRecord[];
  segments: SegmentRecord[];
  stages: StageRecord[];
}

/** One environment's rows, read from the store as a snapshot is built from them. */
export async function readSnapshotSource(repos: Repositories, environment: EnvironmentRecord): Promise<SnapshotSource> {
  const [flags, targeting, specificTargets, segments, stages] = await Promise.all([
    repos.flags.listByApp(environment.appId),
    repos.targeting.listByEnv(environment.id),
    repos.specificTargets.listByEnv(environment.id),
    repos.segments.listByApp(environment.appId),
    repos.stages.listByApp(environment.appId),
  ]);
  return { environment, flags, targeting, specificTargets, segments, stages };
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

/**
 * Served filters are shared between flags and environments when identical: every environment of an app reads its
 * own copy of the same rows, and many rules have the same shape. The table is weak, so it only holds filters some
 * snapshot still uses. Snapshot filters are never mutated (they are serialised and compiled).
 */
const sharedValues = new Map<string, WeakRef<object>>();
const sharedValuesCleanup =
  typeof FinalizationRegistry === 'function' && typeof WeakRef === 'function'
    ? new FinalizationRegistry<string>((key) => {
        if (sharedValues.get(key)?.deref() === undefined) sharedValues.delete(key);
      })
    : undefined;

function shared<T extends object>(value: T): T {
  if (!sharedValuesCleanup) return value;
  let key: string;
  try {
    key = JSON.stringify(value);
  } catch {
    return value;
  }
  const found = sharedValues.get(key)?.deref();
  if (found !== undefined) return found as T;
  sharedValues.set(key, new WeakRef(value));
  sharedValuesCleanup.register(value, key);
  return value;
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

const NEVER: Filter = { type: 'constant', value: false };

/**
 * The rules a flag serves: its own, each AND-ed behind the gate of its prerequisites, so that any client evaluating
 * `/features` (Reflag's SDKs locally, our engine) reaches the same answer with filters it already knows. A
 * prerequisite is "on" when any rule it serves matches (its own gates included, so chains nest); its rollouts keep
 * their own `key`, hashing as the prerequisite does. A prerequisite that is missing, archived or part of a cycle
 * (refused on write; guarded here) is never on.
 */
function servedRulesResolver(
  flags: ReadonlyMap<string, FlagRecord>,
  prerequisitesOf: (flag: FlagRecord) => readonly PrerequisiteRecord[],
  ownRules: (flag: FlagRecord) => Array<{ filter: Filter }>,
): (key: string) => Array<{ filter: Filter }> {
  const done = new Map<string, Array<{ filter: Filter }>>();
  const resolving = new Set<string>();
  const enabled = (key: string): Filter => {
    if (!flags.has(key) || resolving.has(key)) return NEVER;
    const rules = served(key);
    if (rules.length === 0) return NEVER;
    return rules.length === 1 ? rules[0]!.filter : shared({ type: 'group', operator: 'or', filters: rules.map((r) => r.filter) });
  };
  const served = (key: string): Array<{ filter: Filter }> => {
    const known = done.get(key);
    if (known) return known;
    const flag = flags.get(key)!;
    resolving.add(key);
    const gates = prerequisitesOf(flag).map((p): Filter => (p.isEnabled ? enabled(p.flagKey) : { type: 'negation', filter: enabled(p.flagKey) }));
    resolving.delete(key);
    const own = ownRules(flag);
    const gate: Filter | undefined = gates.length === 0 ? undefined : gates.length === 1 ? gates[0] : { type: 'group', operator: 'and', filters: gates };
    const rules = gate ? own.map((r) => shared({ filter: shared<Filter>({ type: 'group', operator: 'and', filters: [gate, r.filter] }) })) : own;
    done.set(key, rules);
    return rules;
  };
  return served;
}

export interface BuiltSnapshot {
  engine: EnvironmentSnapshot;
  features: FeatureDefinition[];
  /** Served (non-archived) flags by key. */
  flags: Map<string, FlagRecord>;
  /** Keys of the archived flags: still flags, whose checks and tracks count (they can be unarchived). */
  archivedKeys: Set<string>;
  /**
   * The config version of served flags without variants whose config has a version (it was cleared): answers carry
   * it as `/features` does, where the engine, with no variants to evaluate, has no config to report.
   */
  emptyConfigVersions: Map<string, number>;
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
  const archivedKeys = new Set<string>();
  for (const flag of source.flags) {
    if (flag.archived) archivedKeys.add(flag.key);
    else flags.set(flag.key, flag);
  }
  const ownRules = (flag: FlagRecord): Array<{ filter: Filter }> => {
    // `map` and `concat` size an array exactly; a spread grows it as it goes and keeps the spare slots (17 for
    // one rule), which for 10,000 flags × 3 environments was ~4 MB of the snapshot's heap.
    const specific = specificTargetRules(targetsByFlag.get(flag.id) ?? []);
    const stored = (targetingByFlag.get(flag.id)?.rules ?? []).map((rule) => shared({ filter: shared(expandRule(rule, segments, flag.key)) }));
    return specific.length ? specific.concat(stored) : stored;
  };
  const served = servedRulesResolver(flags, (flag) => targetingByFlag.get(flag.id)?.prerequisites ?? [], ownRules);

  const definitions: FlagDefinition[] = [];
  // Per definition, for `/features`: its row, and its config version (the engine's definition has no `config`
  // when the flag has no variants).
  const rows: FlagRecord[] = [];
  const configVersions: number[] = [];
  const emptyConfigVersions = new Map<string, number>();
  for (const flag of flags.values()) {
    const targeting = targetingByFlag.get(flag.id);
    const rules = served(flag.key);
    const variants = (targeting?.variants ?? []).map((v) => ({ ...v, filter: shared(withRolloutKeys(v.filter, flag.key)) }));
    const version = targeting?.version ?? 0;
    const configVersion = targeting?.configVersion ?? 0;
    if (!variants.length && configVersion > 0) emptyConfigVersions.set(flag.key, configVersion);
    definitions.push({
      key: flag.key,
      targetingVersion: version,
      rules,
      ...(variants.length ? { config: { version: configVersion, variants } } : {}),
    });
    rows.push(flag);
    configVersions.push(configVersion);
  }
  // `/features` definitions are built on first use: most instances only evaluate in process, and the definitions
  // already hold the rules and variants the entries point to.
  let features: FeatureDefinition[] | undefined;
  return {
    engine: { flagStateVersion: source.environment.flagStateVersion, flags: definitions },
    get features() {
      features ??= definitions.map((definition, i) => {
        const flag = rows[i]!;
        return {
          key: flag.key,
          description: flag.description,
          createdAt: flag.createdAt,
          link: null,
          targeting: { version: definition.targetingVersion, rules: definition.rules as Array<{ filter: Filter }> },
          config: (definition.config as FeatureDefinition['config'] | undefined) ?? {
            version: configVersions[i]!,
            variants: [],
          },
          stage: (flag.stageId && stages.get(flag.stageId)) || null,
        };
      });
      return features;
    },
    flags,
    archivedKeys,
    emptyConfigVersions,
    stages,
  };
}
