import type {
  CompiledSnapshot,
  ConfigEvaluation,
  EnvironmentSnapshot,
  EvaluationContext,
  EvaluationError,
  FlagDefinition,
  FlagEvaluation,
} from './evaluation.js';
import { recordBuilder } from './record-builder.js';
import { fieldsRead, readsNothing } from './outcome-memo.js';
import { OutcomeTable } from './outcome-table.js';
import { compileFilter } from './targeting/compile-filter.js';
import { interned } from './targeting/intern.js';
import { RolloutBatchSet, rolloutsOf, type RolloutUse } from './targeting/rollout-batch.js';
import { swapRolloutBatches } from './targeting/rollout-hash.js';
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

/**
 * `runRules` as a bit mask (bit i: rule i matched), for at most 31 rules: for at most MAX_SHARED_RULES it picks one
 * of the shared result vectors below instead of filling a new array, and it makes outcome codes.
 */
function ruleMask(rules: readonly CompiledFilter[], scope: Scope): number {
  let mask = 0;
  for (let i = 0; i < rules.length; i++) {
    scope.ruleFailed = false;
    if (rules[i]!(scope) && !scope.ruleFailed) mask |= 1 << i;
  }
  return mask;
}

const MAX_SHARED_RULES = 5;

/** Rules plus variants beyond this count do not fit an outcome code (see `CompiledSnapshot.outcomes`). */
const MAX_OUTCOME_RESULTS = 24;

/**
 * Every possible `ruleEvaluationResults` of a list of up to MAX_SHARED_RULES rules, indexed by length then mask:
 * 63 arrays handed out instead of a new one per evaluation. Frozen, since every caller shares them (nothing in
 * core writes to these arrays; a caller that wants to must copy).
 */
const RESULT_VECTORS: readonly (readonly (readonly boolean[])[])[] = Array.from({ length: MAX_SHARED_RULES + 1 }, (_, n) =>
  Array.from({ length: 1 << n }, (_, mask) => Object.freeze(Array.from({ length: n }, (_, i) => ((mask >> i) & 1) === 1))),
);

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
const NO_ROLLOUTS: readonly RolloutUse[] = Object.freeze([]);

/**
 * Flags read the same few fields (`user.plan`, `user.id`): one frozen list per distinct set, rather than one per
 * flag and environment (~1 MB for 10,000 flags × 3 environments).
 */
function sharedReads(reads: readonly string[] | null): readonly string[] | null {
  return reads === null ? null : interned(`\u0001reads:${JSON.stringify(reads)}`, () => Object.freeze(reads));
}

// Most evaluations report no problem: they all hand out these two (frozen, so that no caller can change what
// the others see) instead of two new arrays each.
const NO_ERRORS: readonly EvaluationError[] = Object.freeze([]);
const NO_MISSING: readonly string[] = Object.freeze([]);

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
    /** The context fields its rules and variants read (see `fieldsRead`): none means every context gets the same outcome. */
    readonly reads: readonly string[] | null,
    /** Its rollout filters that hash (`rolloutsOf`), for the snapshot's rollout batches. */
    readonly rollouts: readonly RolloutUse[],
  ) {}

  evaluate(scope: Scope): FlagEvaluation {
    scope.missing = null;
    scope.errors = null;
    const rules = this.rules;
    let results: readonly boolean[];
    let isEnabled: boolean;
    if (rules.length <= MAX_SHARED_RULES) {
      const mask = ruleMask(rules, scope);
      results = RESULT_VECTORS[rules.length]![mask]!;
      isEnabled = mask !== 0;
    } else {
      const filled = new Array<boolean>(rules.length);
      isEnabled = runRules(rules, scope, filled) >= 0;
      results = filled;
    }
    // Read before the config's rules reset the collectors.
    const errors = scope.errors;
    const missing = scope.missing;
    return {
      key: this.key,
      isEnabled,
      targetingVersion: this.targetingVersion,
      ruleEvaluationResults: results,
      evaluationErrors: errors === null ? NO_ERRORS : errors,
      missingContextFields: missing === null ? NO_MISSING : missing,
      config: this.variantFilters.length > 0 ? this.evaluateConfig(scope) : undefined,
    };
  }

  /**
   * The evaluation as a number instead of an object: a leading 1, the rules' mask then the variants' mask (as
   * `ruleMask` gives them, the same results `evaluate` reports), and the enabled bit last; -1 when it reports a
   * problem or has too many results to fit. So equal codes of one flag mean equal evaluations.
   */
  outcome(scope: Scope): number {
    const rules = this.rules;
    const variants = this.variantFilters;
    if (rules.length + variants.length > MAX_OUTCOME_RESULTS) return -1;
    scope.missing = null;
    scope.errors = null;
    const ruleBits = ruleMask(rules, scope);
    const variantBits = ruleMask(variants, scope);
    if (scope.errors !== null || scope.missing !== null) return -1;
    return ((((1 << rules.length) | ruleBits) << variants.length) | variantBits) * 2 + (ruleBits !== 0 ? 1 : 0);
  }

  private evaluateConfig(scope: Scope): ConfigEvaluation {
    scope.missing = null;
    scope.errors = null;
    const filters = this.variantFilters;
    // Sized up front: growing by push would allocate a larger backing store than the result needs.
    const results = new Array<boolean>(filters.length);
    const selected = runRules(filters, scope, results);
    const variant = selected >= 0 ? this.variantValues[selected]! : undefined;
    const errors = scope.errors;
    const missing = scope.missing;
    return {
      key: variant ? variant.key : null,
      version: this.configVersion,
      payload: variant ? variant.payload : null,
      ruleEvaluationResults: results,
      evaluationErrors: errors === null ? NO_ERRORS : errors,
      missingContextFields: missing === null ? NO_MISSING : missing,
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
  const rollouts = rolloutsOf(definition);
  return new CompiledFlag(
    key,
    definition.targetingVersion,
    rules,
    configVersion,
    variantFilters,
    variantValues,
    sharedReads(fieldsRead(definition)),
    rollouts.length ? rollouts : NO_ROLLOUTS,
  );
}

const evaluateFlag = (flag: CompiledFlag, scope: Scope): FlagEvaluation => flag.evaluate(scope);

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
  let table: OutcomeTable | undefined;
  let buildAll: ReturnType<typeof recordBuilder<FlagEvaluation, Scope>> | undefined;
  // Evaluation is synchronous, so one scope serves every call. A getter or proxy in the context could still call
  // back into this snapshot mid-evaluation: that inner call gets a scope of its own.
  const scope = newScope(EMPTY_CONTEXT);
  let busy = false;
  let lastKey: string | undefined;
  let lastFlag: CompiledFlag | undefined;
  let rollouts: RolloutBatchSet | null | undefined;
  const fillOutcomes = (out: Int32Array, each: Scope): void => table!.fill(each, out);
  /**
   * The rollout batches to make active while every flag is evaluated for one context (targeting/rollout-batch.ts):
   * a new value is then hashed for all of a field's rollouts at once. Single-flag calls never batch.
   */
  const batches = () => {
    if (rollouts === undefined) rollouts = RolloutBatchSet.of(list.flatMap((flag) => flag.rollouts));
    return rollouts;
  };
  /** `body(target, scope)` in the shared scope, or in a scope of its own when called back mid-evaluation. */
  const inScope = <T, R>(context: EvaluationContext | null | undefined, target: T, body: (target: T, scope: Scope) => R): R => {
    if (busy) return body(target, newScope(contextObject(context)));
    busy = true;
    scope.context = contextObject(context);
    try {
      return body(target, scope);
    } finally {
      // Not keeping the caller's context alive until the next call.
      scope.context = EMPTY_CONTEXT;
      busy = false;
    }
  };

  return {
    flagStateVersion: snapshot.flagStateVersion,
    keys,
    contextFree: Object.freeze(list.map((flag) => readsNothing(flag.reads))),
    has: (flagKey) => flags.has(flagKey),
    evaluate(flagKey, context) {
      // Callers tend to ask for the same flag again and again (one check in a hot path, the in-process client):
      // comparing with the last key skips the map's hashing and probing (measured ~30 ns of ~100 without the
      // hash), and costs one comparison when the key changes.
      let flag: CompiledFlag | undefined;
      if (flagKey === lastKey) {
        flag = lastFlag;
      } else {
        flag = flags.get(flagKey);
        lastKey = flagKey;
        lastFlag = flag;
      }
      return flag ? inScope(context, flag, evaluateFlag) : undefined;
    },
    evaluateAll(context) {
      buildAll ??= recordBuilder<FlagEvaluation, Scope>(keys);
      const previous = swapRolloutBatches(batches());
      try {
        return buildAll(list, newScope(contextObject(context)));
      } finally {
        swapRolloutBatches(previous);
      }
    },
    outcomes(context, out) {
      table ??= new OutcomeTable(list);
      const previous = swapRolloutBatches(batches());
      try {
        inScope(context, out, fillOutcomes);
      } finally {
        swapRolloutBatches(previous);
      }
    },
  };
}
