import type { Targeting } from '../../schemas/targeting.js';
import type { EnvironmentRecord, FlagRecord, FlagTargetingRecord } from '../../storage/records.js';
import { withRolloutKeys } from '../../domain/rollout-keys.js';

/** A flag that was never targeted in an environment has version 0 and no rules: the same as the snapshot serves. */
export function emptyTargeting(flag: FlagRecord, env: EnvironmentRecord): FlagTargetingRecord {
  return { flagId: flag.id, envId: env.id, version: 0, rules: [], configVersion: 0, variants: [], updatedAt: '' };
}

export function toTargeting(flag: FlagRecord, env: EnvironmentRecord, record: FlagTargetingRecord | undefined): Targeting {
  const t = record ?? emptyTargeting(flag, env);
  return {
    flagId: flag.id,
    flagKey: flag.key,
    envId: env.id,
    version: t.version,
    // Rules stored before keys were filled in on write are shown as they are served.
    rules: t.rules.map((r) => {
      const filter = withRolloutKeys(r.filter, flag.key);
      return r.segmentId ? { filter, segmentId: r.segmentId } : { filter };
    }),
    config: { version: t.configVersion, variants: t.variants.map((v) => ({ ...v, filter: withRolloutKeys(v.filter, flag.key) })) },
    prerequisites: t.prerequisites ?? [],
    updatedAt: record ? t.updatedAt : null,
  };
}
