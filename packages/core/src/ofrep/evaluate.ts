import type { Filter, FlagEvaluation } from '@flagmount/engine';
import { ROLLOUT_THRESHOLD_MAX } from '@flagmount/engine';
import type { EnvironmentState } from '../snapshot/environment-state.js';
import type { OfrepEvaluationSuccess } from './schemas.js';

/** Whether a rule's outcome depends on a partial rollout: such a match is reported as `SPLIT`. */
function isSplit(filter: Filter): boolean {
  switch (filter.type) {
    case 'rolloutPercentage':
      return filter.partialRolloutThreshold > 0 && filter.partialRolloutThreshold < ROLLOUT_THRESHOLD_MAX;
    case 'group':
      return filter.filters.some(isSplit);
    case 'negation':
      return isSplit(filter.filter);
    default:
      return false;
  }
}

/** Per snapshot: for each flag, which of its served rules are partial rollouts (computed once per version). */
const splitRulesByState = new WeakMap<EnvironmentState, Map<string, boolean[]>>();

function splitRules(state: EnvironmentState, flagKey: string): boolean[] {
  let byFlag = splitRulesByState.get(state);
  if (!byFlag) {
    byFlag = new Map(state.features.map((f) => [f.key, f.targeting.rules.map((r) => isSplit(r.filter))]));
    splitRulesByState.set(state, byFlag);
  }
  return byFlag.get(flagKey) ?? [];
}

/**
 * One Flagmount evaluation as an OFREP success. OFREP carries no flag type, so the value is chosen by what the
 * flag has: the matched config variant's payload (object, string or number flags), else `isEnabled` (boolean
 * flags). `metadata.isEnabled` always carries the boolean, so a caller that received a payload still has it.
 */
/** The config payload an OFREP answer carries as its value, or undefined when it carries `isEnabled`. */
export function sentPayload(evaluation: FlagEvaluation): unknown {
  const config = evaluation.config;
  return config !== undefined && config.key !== null && config.payload !== null ? config.payload : undefined;
}

export function toOfrepSuccess(
  state: EnvironmentState,
  evaluation: FlagEvaluation,
  remoteContextUsed: boolean,
): OfrepEvaluationSuccess {
  const config = evaluation.config;
  const variantMatched = config !== undefined && config.key !== null;
  const payload = sentPayload(evaluation);
  const firstMatch = evaluation.ruleEvaluationResults.indexOf(true);
  const reason = variantMatched
    ? 'TARGETING_MATCH'
    : evaluation.isEnabled
      ? splitRules(state, evaluation.key)[firstMatch]
        ? 'SPLIT'
        : 'TARGETING_MATCH'
      : 'DEFAULT';
  const metadata: Record<string, string | number | boolean> = {
    isEnabled: evaluation.isEnabled,
    targetingVersion: evaluation.targetingVersion,
    remoteContextUsed,
  };
  if (config) {
    metadata['configVersion'] = config.version;
    if (config.key !== null) metadata['configKey'] = config.key;
  }
  const missing = [...new Set([...evaluation.missingContextFields, ...(config?.missingContextFields ?? [])])];
  if (missing.length) metadata['missingContextFields'] = missing.join(',');
  return {
    key: evaluation.key,
    value: payload !== undefined ? payload : evaluation.isEnabled,
    reason,
    variant: variantMatched ? config.key! : evaluation.isEnabled ? 'on' : 'off',
    metadata,
  };
}
