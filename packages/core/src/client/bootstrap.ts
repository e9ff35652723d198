import type { FlagEvaluation } from '@flagmount/engine';
import type { EnvironmentState } from '../snapshot/environment-state.js';
import type { FlagContext, FlagOverride } from './types.js';

/** One flag as Reflag's node SDK bootstraps it (its `RawFlag`): plain data, ready to serialise into a page. */
export interface BootstrappedFlag {
  key: string;
  isEnabled: boolean;
  targetingVersion?: number;
  ruleEvaluationResults?: boolean[];
  missingContextFields?: string[];
  config?: {
    key: string | undefined;
    payload: unknown;
    targetingVersion?: number | undefined;
    ruleEvaluationResults?: boolean[];
    missingContextFields?: string[];
  };
}

/**
 * What `@reflag/node-sdk`'s `getFlagsForBootstrap(context)` returns, for the browser SDK's `bootstrappedFlags`:
 * the context (with `enableTracking`), every flag evaluated, and the flag-state version they come from.
 */
export interface BootstrappedFlags {
  context: FlagContext & { enableTracking: boolean };
  flags: Record<string, BootstrappedFlag>;
  flagStateVersion?: number;
}

/** The node SDK's bootstrap answer over one environment's snapshot, field for field (its `_getFlags`). */
export function bootstrapFlags(
  state: EnvironmentState | undefined,
  given: FlagContext,
  overrides: Readonly<Record<string, FlagOverride>> | undefined,
): BootstrappedFlags {
  const { enableTracking = true, ...context } = given;
  const flags: Record<string, BootstrappedFlag> = {};
  if (state) {
    const evaluations = state.compiled.evaluateAll(context);
    for (const key in evaluations) flags[key] = rawFlag(evaluations[key]!, state.emptyConfigVersions.get(key));
  }
  for (const [key, override] of Object.entries(overrides ?? {})) {
    if (override === null || override === undefined) continue;
    flags[key] =
      typeof override === 'boolean'
        ? { key, isEnabled: override, config: undefined }
        : { key, isEnabled: override.isEnabled, config: override.config as BootstrappedFlag['config'] };
  }
  return { context: { enableTracking, ...context }, flags, ...(state ? { flagStateVersion: state.version } : {}) };
}

function rawFlag(evaluation: FlagEvaluation, clearedConfigVersion: number | undefined): BootstrappedFlag {
  const config = evaluation.config;
  const matched = config !== undefined && config.key !== null;
  return {
    key: evaluation.key,
    isEnabled: evaluation.isEnabled,
    ruleEvaluationResults: [...evaluation.ruleEvaluationResults],
    missingContextFields: [...evaluation.missingContextFields],
    targetingVersion: evaluation.targetingVersion,
    config: {
      key: matched ? config.key! : undefined,
      payload: matched ? config.payload : undefined,
      // `/features` always serves a config (version 0 when it never had one), so the SDK always has its version.
      targetingVersion: config?.version ?? clearedConfigVersion ?? 0,
      ruleEvaluationResults: [...(config?.ruleEvaluationResults ?? [])],
      missingContextFields: [...(config?.missingContextFields ?? [])],
    },
  };
}
