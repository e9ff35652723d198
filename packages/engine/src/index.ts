export { compileSnapshot } from './compile.js';
export { rolloutHash } from './targeting/rollout.js';
export { rolloutHashImplementation } from './targeting/sha256-block.js';
export { validateFilter, type FilterCheckOptions, type FilterIssue } from './schema/validate-filter.js';
export {
  CONTEXT_OPERATORS,
  ContextOperatorSchema,
  ConfigVariantSchema,
  FilterSchema,
  FlagDefinitionSchema,
  MULTI_VALUE_OPERATORS,
  NO_VALUE_OPERATORS,
  ROLLOUT_THRESHOLD_MAX,
  TargetingRuleSchema,
  type ConfigVariant,
  type ConstantFilter,
  type ContextFilter,
  type ContextOperator,
  type Filter,
  type FilterType,
  type GroupFilter,
  type NegationFilter,
  type RolloutPercentageFilter,
  type TargetingRule,
} from './schema/filter.js';
export type {
  CompiledSnapshot,
  ConfigEvaluation,
  EnvironmentSnapshot,
  EvaluationContext,
  EvaluationError,
  EvaluationErrorCode,
  FlagDefinition,
  FlagEvaluation,
} from './evaluation.js';
