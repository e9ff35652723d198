import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateFlagRules } from '@reflag/flag-evaluation';
import { compileSnapshot, type EvaluationError, type Filter, type FlagDefinition } from '@flagmount/engine';
import { contextArbitrary, filterArbitrary, type GeneratedContext } from './arbitraries.js';

/**
 * Differential test against @reflag/flag-evaluation 1.0.1, the library Reflag's node SDK evaluates with.
 *
 * Without array attributes the engine must agree with the library on everything the SDK reports: isEnabled,
 * ruleEvaluationResults, missingContextFields (in order), and config selection. With array attributes the
 * expected answer is still the library's, except at the filters that read an array, which follow the runtime
 * spec's array rules (reflag-clients.md, "Decisions"): the oracle below walks the filter tree as the library does,
 * asks the library about every filter that reads no array, and applies the spec's rules to the others.
 *
 * CI runs a fixed seed; elsewhere the seed is random and printed in the test name and by fast-check on failure.
 */

const RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 100_000);
const seed = process.env.CI ? 20_240_601 : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
const FLAG_KEY = 'diff-flag';

type LibFilter = Parameters<typeof evaluateFlagRules>[0]['rules'][number]['filter'];

/** In the library's world every rollout filter carries the flag key; the engine defaults it. */
function withRolloutKeys(filter: Filter): LibFilter {
  switch (filter.type) {
    case 'rolloutPercentage':
      return { ...filter, key: filter.key ?? FLAG_KEY };
    case 'group':
      return { ...filter, filters: filter.filters.map(withRolloutKeys) };
    case 'negation':
      return { ...filter, filter: withRolloutKeys(filter.filter) };
    default:
      return filter;
  }
}

function library(filters: Filter[], context: Record<string, unknown>) {
  const result = evaluateFlagRules({
    context,
    flagKey: FLAG_KEY,
    rules: filters.map((filter) => ({ filter: withRolloutKeys(filter), value: true })),
  });
  return {
    ruleEvaluationResults: result.ruleEvaluationResults,
    missingContextFields: result.missingContextFields ?? [],
  };
}

interface Expected {
  ruleEvaluationResults: boolean[];
  missingContextFields: string[];
  arrayErrors: Array<{ field: string; operator: string }>;
}

/** The runtime spec's array rules, written out plainly; undefined: the operator does not work with arrays. */
function specArrayRule(operator: string, values: string[], array: unknown[]): boolean | undefined {
  const items = array.map((item) => (item === null || item === undefined ? '' : String(item)));
  const value = values[0]!;
  switch (operator) {
    case 'IS':
      return items.length === 1 && items[0] === value;
    case 'IS_NOT':
      return !(items.length === 1 && items[0] === value);
    case 'CONTAINS':
      return items.includes(value);
    case 'NOT_CONTAINS':
      return !items.includes(value);
    case 'ANY_OF':
      return values.some((v) => items.includes(v));
    case 'NOT_ANY_OF':
      return !values.some((v) => items.includes(v));
    case 'SET':
      return items.length > 0;
    case 'NOT_SET':
      return items.length === 0;
    default:
      return undefined;
  }
}

function oracle(filters: Filter[], { context, arrays }: GeneratedContext): Expected {
  const missing: string[] = [];
  const arrayErrors: Expected['arrayErrors'] = [];
  let ruleFailed = false;

  const leaf = (filter: Filter): boolean => {
    const field =
      filter.type === 'context'
        ? filter.field
        : filter.type === 'rolloutPercentage'
          ? filter.partialRolloutAttribute
          : '';
    const array = arrays.get(field);
    if (array === undefined) {
      const single = library([filter], context);
      for (const f of single.missingContextFields) if (!missing.includes(f)) missing.push(f);
      return single.ruleEvaluationResults[0]!;
    }
    const operator = filter.type === 'context' ? filter.operator : 'rolloutPercentage';
    const result = filter.type === 'context' ? specArrayRule(filter.operator, filter.values, array) : undefined;
    if (result !== undefined) return result;
    // The spec: the affected rule does not match, whatever wraps the filter.
    ruleFailed = true;
    if (!arrayErrors.some((e) => e.field === field && e.operator === operator)) arrayErrors.push({ field, operator });
    return false;
  };

  // The library's reduce, short-circuit included.
  const walk = (filter: Filter): boolean => {
    switch (filter.type) {
      case 'group': {
        const and = filter.operator === 'and';
        return filter.filters.reduce<boolean>((acc, child) => (and ? acc && walk(child) : acc || walk(child)), and);
      }
      case 'negation':
        return !walk(filter.filter);
      default:
        return leaf(filter);
    }
  };

  const ruleEvaluationResults = filters.map((filter) => {
    ruleFailed = false;
    const result = walk(filter);
    return result && !ruleFailed;
  });
  return { ruleEvaluationResults, missingContextFields: missing, arrayErrors };
}

interface Reported {
  ruleEvaluationResults: readonly boolean[];
  missingContextFields: readonly string[];
  evaluationErrors: readonly EvaluationError[];
}

/** Assert one evaluation against the library (no arrays) or the oracle (arrays); returns what was expected. */
function expectAgreement(filters: Filter[], generated: GeneratedContext, got: Reported): Expected {
  const expected: Expected =
    generated.arrays.size === 0
      ? { ...library(filters, generated.context), arrayErrors: [] }
      : oracle(filters, generated);
  expect(got.ruleEvaluationResults).toEqual(expected.ruleEvaluationResults);
  expect(got.missingContextFields).toEqual(expected.missingContextFields);
  const errors = (code: EvaluationError['code']) => got.evaluationErrors.filter((e) => e.code === code);
  const missingFields = new Set(errors('MISSING_CONTEXT_FIELD').map((e) => e.field));
  expect([...missingFields].sort()).toEqual([...expected.missingContextFields].sort());
  const arrayErrors = errors('UNSUPPORTED_ARRAY_OPERATOR').map(({ field, operator }) => ({ field, operator }));
  expect(arrayErrors).toEqual(expected.arrayErrors);
  return expected;
}

const anyContext = fc.oneof(contextArbitrary(false), contextArbitrary(true));

function definition(rules: Filter[], variants: Filter[] = []): FlagDefinition {
  const config = { version: 2, variants: variants.map((filter, i) => ({ key: `v${i}`, payload: { i }, filter })) };
  const flag: FlagDefinition = { key: FLAG_KEY, targetingVersion: 3, rules: rules.map((filter) => ({ filter })) };
  return variants.length > 0 ? { ...flag, config } : flag;
}

describe('engine vs @reflag/flag-evaluation', () => {
  // The library logs every non-numeric GT/LT and invalid date; thousands of lines would bury a real failure.
  // (A plain no-op, not a spy: a spy would keep every call's arguments.)
  const consoleError = console.error;
  beforeAll(() => {
    console.error = () => undefined;
  });
  afterAll(() => {
    console.error = consoleError;
  });

  it(`agrees on ${RUNS} random (rules, context) pairs, but for the documented array rules (seed ${seed})`, () => {
    let withArrays = 0;
    const cases = fc.record({
      rules: fc.array(filterArbitrary, { minLength: 1, maxLength: 4 }),
      variants: fc.array(filterArbitrary, { maxLength: 3 }),
      generated: anyContext,
    });
    fc.assert(
      fc.property(cases, ({ rules, variants, generated }) => {
        if (generated.arrays.size > 0) withArrays++;
        const snapshot = compileSnapshot({ flagStateVersion: 1, flags: [definition(rules, variants)] });
        const actual = snapshot.evaluate(FLAG_KEY, generated.context)!;

        const flag = expectAgreement(rules, generated, actual);
        expect(actual.isEnabled).toBe(flag.ruleEvaluationResults.some(Boolean));

        if (variants.length === 0) {
          expect(actual.config).toBeUndefined();
          return;
        }
        // Config selection as in @reflag/node-sdk: every variant evaluated, the first match selected.
        const config = expectAgreement(variants, generated, actual.config!);
        const selected = config.ruleEvaluationResults.indexOf(true);
        expect(actual.config!.key).toBe(selected >= 0 ? `v${selected}` : null);
        expect(actual.config!.payload).toEqual(selected >= 0 ? { i: selected } : null);
      }),
      { numRuns: RUNS, seed },
    );
    // The array branch must have been exercised, not starved by the generator.
    expect(withArrays).toBeGreaterThan(RUNS / 10);
  }, 240_000);

  it('agrees when one compiled snapshot serves many contexts in turn (no state leaks between evaluations)', () => {
    const cases = fc.record({
      rules: fc.array(filterArbitrary, { minLength: 1, maxLength: 4 }),
      contexts: fc.array(anyContext, { minLength: 2, maxLength: 5 }),
      order: fc.array(fc.nat(), { minLength: 3, maxLength: 8 }),
    });
    fc.assert(
      fc.property(cases, ({ rules, contexts, order }) => {
        const snapshot = compileSnapshot({ flagStateVersion: 1, flags: [definition(rules)] });
        for (const pick of order) {
          const generated = contexts[pick % contexts.length]!;
          const expected = expectAgreement(rules, generated, snapshot.evaluate(FLAG_KEY, generated.context)!);
          const all = snapshot.evaluateAll(generated.context);
          expect(all[FLAG_KEY]!.ruleEvaluationResults).toEqual(expected.ruleEvaluationResults);
        }
      }),
      { numRuns: Math.ceil(RUNS / 50), seed: seed + 1 },
    );
  }, 240_000);
});
