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
 * expected answer is the library's everywhere except at filters that read an array, which follow the runtime
 * spec's array rules (reflag-clients.md, "Decisions"): that oracle is built below from the library itself.
 */

const RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 100_000);
const seed = process.env.CI ? 20_240_601 : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

type LibFilter = Parameters<typeof evaluateFlagRules>[0]['rules'][number]['filter'];

/** Every rollout filter carries the flag key in the library's world (the engine defaults it). */
function withRolloutKeys(filter: Filter, flagKey: string): LibFilter {
  switch (filter.type) {
    case 'rolloutPercentage':
      return { ...filter, key: filter.key ?? flagKey };
    case 'group':
      return { ...filter, filters: filter.filters.map((f) => withRolloutKeys(f, flagKey)) };
    case 'negation':
      return { ...filter, filter: withRolloutKeys(filter.filter, flagKey) };
    default:
      return filter;
  }
}

function library(filters: Filter[], flagKey: string, context: Record<string, unknown>) {
  const result = evaluateFlagRules({
    context,
    flagKey,
    rules: filters.map((filter, i) => ({ filter: withRolloutKeys(filter, flagKey), value: { index: i } })),
  });
  return {
    selected: result.value?.index ?? -1,
    ruleEvaluationResults: result.ruleEvaluationResults,
    missingContextFields: result.missingContextFields ?? [],
  };
}

interface Expected {
  ruleEvaluationResults: boolean[];
  missingContextFields: string[];
  arrayErrors: Array<{ field: string; operator: string }>;
}

const itemString = (item: unknown) => (item === null || item === undefined ? '' : String(item));

/** The runtime spec's array rules, written out plainly; undefined means "does not work with arrays". */
function specArrayRule(operator: string, values: string[], array: unknown[]): boolean | undefined {
  const items = array.map(itemString);
  const value = values[0];
  switch (operator) {
    case 'IS':
      return items.length === 1 && items[0] === value;
    case 'IS_NOT':
      return !(items.length === 1 && items[0] === value);
    case 'CONTAINS':
      return items.includes(value!);
    case 'NOT_CONTAINS':
      return !items.includes(value!);
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

/**
 * The library's tree walk (short-circuit included) with the library deciding every leaf that reads no array,
 * and the spec's array rules deciding the others.
 */
function oracle(filters: Filter[], flagKey: string, generated: GeneratedContext): Expected {
  const { context, arrayFields } = generated;
  const missing: string[] = [];
  const arrayErrors: Expected['arrayErrors'] = [];
  let ruleFailed = false;

  const arrayAt = (field: string): unknown[] | undefined => {
    if (!arrayFields.has(field)) return undefined;
    const [root, ...rest] = field.split('.');
    // `company.meta.tier` is stored under the one key "meta.tier".
    const holder = (context[root!] as Record<string, unknown>) ?? {};
    const value = rest.length === 2 && !(rest[0]! in holder) ? holder[rest.join('.')] : rest.reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], holder);
    return value as unknown[];
  };

  const leaf = (filter: Filter): boolean => {
    const field = filter.type === 'context' ? filter.field : filter.type === 'rolloutPercentage' ? filter.partialRolloutAttribute : undefined;
    const array = field === undefined ? undefined : arrayAt(field);
    if (array === undefined) {
      const single = library([filter], flagKey, context);
      for (const f of single.missingContextFields) if (!missing.includes(f)) missing.push(f);
      return single.ruleEvaluationResults[0]!;
    }
    const operator = filter.type === 'context' ? filter.operator : 'rolloutPercentage';
    const result = filter.type === 'context' ? specArrayRule(filter.operator, filter.values, array) : undefined;
    if (result !== undefined) return result;
    ruleFailed = true;
    if (!arrayErrors.some((e) => e.field === field && e.operator === operator)) arrayErrors.push({ field: field!, operator });
    return false;
  };

  const walk = (filter: Filter): boolean => {
    switch (filter.type) {
      case 'group':
        return filter.filters.reduce<boolean>(
          (acc, child) => (filter.operator === 'and' ? acc && walk(child) : acc || walk(child)),
          filter.operator === 'and',
        );
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

function errorsOf(errors: EvaluationError[], code: EvaluationError['code']) {
  return errors.filter((e) => e.code === code);
}

const FLAG_KEY = 'diff-flag';

type Reported = { ruleEvaluationResults: boolean[]; missingContextFields: string[]; evaluationErrors: EvaluationError[] };

/** Assert one evaluation against the library (no arrays) or the oracle (arrays); returns what was expected. */
function expectAgreement(filters: Filter[], generated: GeneratedContext, got: Reported): Expected {
  let expected: Expected;
  if (generated.arrayFields.size === 0) {
    const lib = library(filters, FLAG_KEY, generated.context);
    expected = { ruleEvaluationResults: lib.ruleEvaluationResults, missingContextFields: lib.missingContextFields, arrayErrors: [] };
  } else {
    expected = oracle(filters, FLAG_KEY, generated);
  }
  expect(got.ruleEvaluationResults).toEqual(expected.ruleEvaluationResults);
  expect(got.missingContextFields).toEqual(expected.missingContextFields);
  const missingErrors = errorsOf(got.evaluationErrors, 'MISSING_CONTEXT_FIELD').map((e) => e.field);
  expect([...new Set(missingErrors)].sort()).toEqual([...expected.missingContextFields].sort());
  const arrayErrors = errorsOf(got.evaluationErrors, 'UNSUPPORTED_ARRAY_OPERATOR').map(({ field, operator }) => ({ field, operator }));
  expect(arrayErrors).toEqual(expected.arrayErrors);
  return expected;
}

const caseArbitrary = fc.record({
  rules: fc.array(filterArbitrary, { minLength: 1, maxLength: 4 }),
  variants: fc.array(filterArbitrary, { maxLength: 3 }),
  generated: fc.oneof(contextArbitrary(false), contextArbitrary(true)),
});

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

  it(`agrees on ${RUNS} random (rules, context) pairs, except the documented array semantics (seed ${seed})`, () => {
    let withArrays = 0;
    fc.assert(
      fc.property(caseArbitrary, ({ rules, variants, generated }) => {
        const definition: FlagDefinition = {
          key: FLAG_KEY,
          targetingVersion: 3,
          rules: rules.map((filter) => ({ filter })),
          ...(variants.length > 0
            ? { config: { version: 2, variants: variants.map((filter, i) => ({ key: `v${i}`, payload: { i }, filter })) } }
            : {}),
        };
        const actual = compileSnapshot({ flagStateVersion: 1, flags: [definition] }).evaluate(FLAG_KEY, generated.context)!;

        if (generated.arrayFields.size > 0) withArrays++;
        const flag = expectAgreement(rules, generated, actual);
        expect(actual.isEnabled).toBe(flag.ruleEvaluationResults.some(Boolean));

        if (variants.length === 0) {
          expect(actual.config).toBeUndefined();
        } else {
          const config = expectAgreement(variants, generated, actual.config!);
          const selected = config.ruleEvaluationResults.indexOf(true);
          expect(actual.config!.key).toBe(selected >= 0 ? `v${selected}` : null);
          expect(actual.config!.payload).toEqual(selected >= 0 ? { i: selected } : null);
        }
      }),
      { numRuns: RUNS, seed },
    );
    // The array branch must have been exercised, not skipped by the generator.
    expect(withArrays).toBeGreaterThan(RUNS / 10);
  }, 240_000);

  it('agrees when one compiled snapshot serves many contexts in turn (no state leaks between evaluations)', () => {
    fc.assert(
      fc.property(
        fc.array(filterArbitrary, { minLength: 1, maxLength: 4 }),
        fc.array(fc.oneof(contextArbitrary(false), contextArbitrary(true)), { minLength: 2, maxLength: 5 }),
        fc.array(fc.nat(), { minLength: 3, maxLength: 8 }),
        (rules, contexts, order) => {
          const snapshot = compileSnapshot({ flagStateVersion: 1, flags: [{ key: FLAG_KEY, targetingVersion: 1, rules: rules.map((filter) => ({ filter })) }] });
          for (const pick of order) {
            const generated = contexts[pick % contexts.length]!;
            const expected = expectAgreement(rules, generated, snapshot.evaluate(FLAG_KEY, generated.context)!);
            expect(snapshot.evaluateAll(generated.context)[FLAG_KEY]!.ruleEvaluationResults).toEqual(expected.ruleEvaluationResults);
          }
        },
      ),
      { numRuns: Math.ceil(RUNS / 50), seed: seed + 1 },
    );
  }, 240_000);
});
