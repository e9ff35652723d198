import { compileSnapshot, type EvaluationContext, type Filter, type FlagEvaluation } from '../src/index.js';

export const FLAG = 'my-flag';

/** Evaluate one flag whose rules are the given filters. */
export function evaluateRules(filters: Filter[], context: EvaluationContext, key = FLAG): FlagEvaluation {
  const snapshot = compileSnapshot({
    flagStateVersion: 1,
    flags: [{ key, targetingVersion: 1, rules: filters.map((filter) => ({ filter })) }],
  });
  return snapshot.evaluate(key, context)!;
}

/** Result of a single filter as the only rule. */
export function matches(filter: Filter, context: EvaluationContext, key = FLAG): boolean {
  return evaluateRules([filter], context, key).isEnabled;
}

export const ctx = (field: string, operator: string, values: string[] = []): Filter =>
  ({ type: 'context', field, operator, values }) as Filter;
