import type {
  CompiledSnapshot,
  ConfigEvaluation,
  EnvironmentSnapshot,
  EvaluationContext,
  FlagDefinition,
  FlagEvaluation,
} from './evaluation.js';
import { recordBuilder } from './record-builder.js';
import { compileFilter } from './targeting/compile-filter.js';
import { newScope, type CompiledFilter, type Scope } from './targeting/scope.js';

interface CompiledVariant {
  key: string;
  payload: unknown;
}

const EMPTY_CONTEXT: EvaluationContext = Object.freeze({});

/**
 * Evaluate every rule, as the library does (no early exit across rules: each result is reported). A rule hit by
 * an array error does not match even when a negation would turn its `false` into `true` (runtime spec, errors).
 */
function runRules(rules: readonly CompiledFilter[], scope: Scope, results: boolean[]): number {
  let first = -1;
  for (let i = 0; i < rules.length; i++) {
    scope.ruleFailed = false;
    const matched = rules[i]!(scope) && !scope.ruleFailed;
    results[i] = matched;
    if (matched && first < 0) first = i;
  }
  return first;
}

function frozenCopy(payload: unknown): unknown {
  if (payload === undefined) return null;
  if (typeof payload !== 'object' || payload === null) return payload;
  // Every evaluation hands out the same payload: a caller mutating it must not change the next answer.
  let copy: unknown;
  try {
    copy = structuredClone(payload);
  } catch {
    return payload;
  }
  return deepFreeze(copy);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

const NO_FILTERS: readonly CompiledFilter[] = Object.freeze([]);
const NO_VARIANTS: readonly CompiledVariant[] = Object.freeze([]);

/**
 * A compiled flag: plain data plus shared prototype methods, so a flag costs one small object and its rule list
 * (the filters themselves are shared between identical rules, see targeting/intern.ts), not a set of closures.
 */
class CompiledFlag {
  constructor(
    readonly key: string,
    private readonly targetingVersion: number,
    private readonly rules: readonly CompiledFilter[],
    private readonly configVersion: number,
    private readonly variantFilters: readonly CompiledFilter[],
    private readonly variantValues: readonly CompiledVariant[],
  ) {}

  evaluate(scope: Scope): FlagEvaluation {
    scope.missing = null;
    scope.errors = null;
    const rules = this.rules;
    const results = new Array<boolean>(rules.length);
    const matched = runRules(rules, scope, results);
    const evaluation: FlagEvaluation = {
      key: this.key,
      isEnabled: matched >= 0,
      targetingVersion: this.targetingVersion,
      ruleEvaluationResults: results,
      evaluationErrors: scope.errors ?? [],
      missingContextFields: scope.missing ?? [],
      config: undefined,
    };
    if (this.variantFilters.length > 0) evaluation.config = this.evaluateConfig(scope);
    return evaluation;
  }

  private evaluateConfig(scope: Scope): ConfigEvaluation {
    scope.missing = null;
    scope.errors = null;
    const filters = this.variantFilters;
    // Sized up front: growing by push would allocate a larger backing store than the result needs.
    const results = new Array<boolean>(filters.length);
    const selected = runRules(filters, scope, results);
    const variant = selected >= 0 ? this.variantValues[selected]! : undefined;
    return {
      key: variant ? variant.key : null,
      version: this.configVersion,
      payload: variant ? variant.payload : null,
      ruleEvaluationResults: results,
      evaluationErrors: scope.errors ?? [],
      missingContextFields: scope.missing ?? [],
    };
  }
}

function compileFlag(definition: FlagDefinition): CompiledFlag {
  const key = definition.key;
  const ruleList = Array.isArray(definition.rules) ? definition.rules : [];
  const rules = ruleList.length ? ruleList.map((rule) => compileFilter(rule?.filter, key)) : NO_FILTERS;
  const variants = Array.isArray(definition.config?.variants) ? definition.config.variants : [];
  const configVersion = definition.config?.version ?? 0;
  const variantFilters = variants.length ? variants.map((variant) => compileFilter(variant?.filter, key)) : NO_FILTERS;
  const variantValues: readonly CompiledVariant[] = variants.length
    ? variants.map((variant) => ({ key: variant.key, payload: frozenCopy(variant.payload) }))
    : NO_VARIANTS;
  return new CompiledFlag(key, definition.targetingVersion, rules, configVersion, variantFilters, variantValues);
}

function contextObject(context: EvaluationContext | null | undefined): object {
  return typeof context === 'object' && context !== null ? context : EMPTY_CONTEXT;
}

/**
 * Compile a snapshot once: filters become closures with their field paths resolved, so an evaluation only reads
 * the context and compares. When a key appears twice, the later definition wins.
 */
export function compileSnapshot(snapshot: EnvironmentSnapshot): CompiledSnapshot {
  const flags = new Map<string, CompiledFlag>();
  for (const definition of snapshot.flags ?? []) flags.set(definition.key, compileFlag(definition));
  const list = [...flags.values()];
  const keys = Object.freeze(list.map((flag) => flag.key));
  // Generated on first use: compiling the generated function costs tens of microseconds, which a snapshot only
  // ever asked for single flags need not pay.
  let buildAll: ReturnType<typeof recordBuilder<FlagEvaluation, Scope>> | undefined;

  return {
    flagStateVersion: snapshot.flagStateVersion,
    keys,
    has: (flagKey) => flags.has(flagKey),
    evaluate(flagKey, context) {
      const flag = flags.get(flagKey);
      return flag ? flag.evaluate(newScope(contextObject(context))) : undefined;
    },
    evaluateAll(context) {
      buildAll ??= recordBuilder<FlagEvaluation, Scope>(keys);
      return buildAll(list, newScope(contextObject(context)));
    },
  };
}
