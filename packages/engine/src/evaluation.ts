import type { ConfigVariant, TargetingRule } from './schema/filter.js';

/** The runtime spec's context; other top-level members are evaluated too, as Reflag's library does. */
export interface EvaluationContext {
  user?: Record<string, unknown>;
  company?: Record<string, unknown>;
  other?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface FlagDefinition {
  key: string;
  targetingVersion: number;
  rules: TargetingRule[];
  config?: { version: number; variants: ConfigVariant[] };
}

export interface EnvironmentSnapshot {
  flagStateVersion: number;
  flags: FlagDefinition[];
}

export type EvaluationErrorCode = 'MISSING_CONTEXT_FIELD' | 'UNSUPPORTED_ARRAY_OPERATOR';

export interface EvaluationError {
  code: EvaluationErrorCode;
  field: string;
  /** A context operator, or `rolloutPercentage` when the field is a rollout attribute. */
  operator: string;
  message: string;
}

export interface ConfigEvaluation {
  /** Key of the first variant whose filter matched; null when none did. */
  key: string | null;
  version: number;
  /** Payload of the selected variant; null when none matched. Frozen: it is shared by every evaluation. */
  payload: unknown;
  /** One entry per variant, in order: every variant is evaluated, as in Reflag's node SDK. */
  ruleEvaluationResults: readonly boolean[];
  evaluationErrors: readonly EvaluationError[];
  missingContextFields: readonly string[];
}

export interface FlagEvaluation {
  key: string;
  isEnabled: boolean;
  targetingVersion: number;
  ruleEvaluationResults: readonly boolean[];
  evaluationErrors: readonly EvaluationError[];
  missingContextFields: readonly string[];
  /** Undefined when the flag has no config variants. */
  config: ConfigEvaluation | undefined;
}

export interface CompiledSnapshot {
  readonly flagStateVersion: number;
  readonly keys: readonly string[];
  /** Per key, in `keys` order: the flag reads nothing from the context, so every context gets its one outcome. */
  readonly contextFree: readonly boolean[];
  has(flagKey: string): boolean;
  evaluate(flagKey: string, context: EvaluationContext): FlagEvaluation | undefined;
  evaluateAll(context: EvaluationContext): Record<string, FlagEvaluation>;
  /**
   * Every flag's evaluation as an outcome code, in `keys` order, into `out` (at least `keys.length` long), with no
   * object made per flag: for callers that keep work per outcome, such as a serialised answer. Within one snapshot,
   * two contexts with the same non-negative code for a flag get equal evaluations of it; bit 0 is `isEnabled`.
   * A code of -1 carries more than booleans (an error, a missing field) or too many rules: `evaluate` gives it in
   * full.
   */
  outcomes(context: EvaluationContext, out: Int32Array): void;
}
