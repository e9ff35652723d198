import type { FlagEvaluation } from '@flagmount/engine';
import type { Context } from '../../schemas/context.js';
import type { EvaluatedFeature } from '../../schemas/evaluated-feature.js';
import type { EnvironmentState } from '../../snapshot/environment-state.js';
import type { FlagRecord } from '../../storage/records.js';
import type { OptInIndex } from './opt-in-index.js';

export interface EvaluateOptions {
  /** Only this flag (the `key` query parameter). */
  key?: string | undefined;
  /** Only flags that evaluated to true (`/features/enabled`). */
  enabledOnly: boolean;
  /** Secret flags are served to the secret key only: a publishable key lives in browsers. */
  includeSecret: boolean;
  /** Whether this caller may opt in (`POST /flags/opt-in`), per the `optIn` option and its key kind. */
  optInEnabled: boolean;
}

export const idText = (id: unknown): string | undefined =>
  typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;

/** The `features` map of `/features/evaluated` and `/features/enabled`, every field of the spec filled. */
export function evaluateFeatures(
  state: EnvironmentState,
  context: Context,
  optIns: OptInIndex,
  options: EvaluateOptions,
): Record<string, EvaluatedFeature> {
  const evaluations: FlagEvaluation[] = [];
  if (options.key !== undefined) {
    const one = state.compiled.evaluate(options.key, context);
    if (one) evaluations.push(one);
  } else {
    evaluations.push(...Object.values(state.compiled.evaluateAll(context)));
  }
  const userId = idText(context.user?.id);
  const companyId = idText(context.company?.id);
  const out: Record<string, EvaluatedFeature> = {};
  for (const evaluation of evaluations) {
    if (options.enabledOnly && !evaluation.isEnabled) continue;
    const flag = state.flags.get(evaluation.key);
    if (!flag || (flag.secret && !options.includeSecret)) continue;
    const entry = toEvaluatedFeature(state, flag, evaluation, optIns, userId, companyId, options.optInEnabled);
    // A flag called "__proto__" must be an entry, not the object's prototype.
    Object.defineProperty(out, evaluation.key, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function toEvaluatedFeature(
  state: EnvironmentState,
  flag: FlagRecord,
  evaluation: FlagEvaluation,
  optIns: OptInIndex,
  userId: string | undefined,
  companyId: string | undefined,
  optInEnabled: boolean,
): EvaluatedFeature {
  const userOptedIn = userId !== undefined && (optIns.users.get(flag.id)?.has(userId) ?? false);
  const companyOptedIn = companyId !== undefined && (optIns.companies.get(flag.id)?.has(companyId) ?? false);
  const config = evaluation.config;
  return {
    key: evaluation.key,
    targetingVersion: evaluation.targetingVersion,
    isEnabled: evaluation.isEnabled,
    optInEnabled,
    optIn: {
      userOptedIn,
      companyOptedIn,
      isOptedIn: userOptedIn || companyOptedIn,
      name: flag.name,
      description: flag.description,
    },
    stage: (flag.stageId && state.stages.get(flag.stageId)) || null,
    config: config
      ? {
          key: config.key,
          name: config.key,
          version: config.version,
          default: config.key === null,
          payload: config.payload ?? null,
          ruleEvaluationResults: [...config.ruleEvaluationResults],
          evaluationErrors: [...config.evaluationErrors],
          missingContextFields: [...config.missingContextFields],
        }
      : {
          key: null,
          name: null,
          version: state.emptyConfigVersions.get(flag.key) ?? 0,
          default: true,
          payload: null,
          ruleEvaluationResults: [],
          evaluationErrors: [],
          missingContextFields: [],
        },
    // Copies: the engine's arrays may be shared and frozen, and this answer is the caller's to keep.
    ruleEvaluationResults: [...evaluation.ruleEvaluationResults],
    evaluationErrors: [...evaluation.evaluationErrors],
    missingContextFields: [...evaluation.missingContextFields],
  };
}
