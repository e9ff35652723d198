import fc from 'fast-check';
import { CONTEXT_OPERATORS, type ContextOperator, type Filter } from '@flagmount/engine';

/**
 * Generators for the differential test. Contexts are built from named slots so that the test knows, without
 * re-implementing field resolution, which fields hold an array (the one place where the engine and Reflag's
 * library are meant to differ).
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
// Relative-date fixtures stay at least an hour away from any "N days ago" boundary, so the few milliseconds
// between the two evaluations cannot flip an AFTER/BEFORE result.
const NOW = Date.now();
const relativeDate = (days: number, hours: number) => new Date(NOW - days * DAY + hours * HOUR).toISOString();

export const STRINGS = [
  'enterprise', 'Enterprise', 'ENTERPRISE', 'free', 'pro', 'ent', 'prise', '', ' ', 'true', 'false', 'True', 'null',
  'undefined', '0', '-0', '1', '42', '042', ' 42 ', '42.0', '1e2', '0x10', '-3.5', '1e21', 'NaN', 'Infinity', 'abc',
  'über', 'ÜBER', 'straße', 'STRASSE', 'İstanbul', '日本', '😀', 'a😀b', '\u0000', 'x\ud800', '\udc00y',
  '2024-01-15', '2024-01-15T10:00:00Z', '2024-01-15T10:00:00.000Z', 'Jan 15 2024', '2030-06-01', '1999-12-31T23:59:59Z',
  relativeDate(1, -3), relativeDate(1, 3), relativeDate(7, 2), relativeDate(7, -2), relativeDate(30, 1),
  relativeDate(30, -1), relativeDate(0, -2), relativeDate(-5, 0), 'company-1', 'user-42', 'acme-inc', '123',
];

const DAY_COUNTS = ['0', '1', '7', '30', '365', '-1', '1.5', 'abc', '', '1e1'];

const stringValue = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);

/** Scalars as JSON (and the in-process client) can carry them. */
export const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: stringValue },
  { weight: 3, arbitrary: fc.constantFrom(0, -0, 1, 42, -3.5, 1e21, 0.1 + 0.2, 123, 100000, Number.NaN) },
  { weight: 2, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
  { weight: 1, arbitrary: fc.double({ noNaN: false }) },
  { weight: 3, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constant({ nested: 'x' }) },
);

const arrayValue = fc.array(fc.oneof({ weight: 5, arbitrary: stringValue }, { weight: 1, arbitrary: scalar }), {
  maxLength: 3,
});

/** Where each slot lives in the context: a path of object keys. `meta.tier` is one key holding a dot. */
export const SLOTS: Record<string, readonly string[]> = {
  'user.id': ['user', 'id'],
  'user.name': ['user', 'name'],
  'user.age': ['user', 'age'],
  'user.roles': ['user', 'roles'],
  'user.profile.plan': ['user', 'profile', 'plan'],
  'user.profile.tags': ['user', 'profile', 'tags'],
  'company.id': ['company', 'id'],
  'company.plan': ['company', 'plan'],
  'company.seats': ['company', 'seats'],
  'company.createdAt': ['company', 'createdAt'],
  'company.tags': ['company', 'tags'],
  'company.meta.tier': ['company', 'meta.tier'],
  'other.source': ['other', 'source'],
  'other.beta': ['other', 'beta'],
};

/** Fields rules may name: every slot, paths into arrays and objects, whole roots and absent fields. */
export const FIELDS = [
  ...Object.keys(SLOTS),
  'user.roles.0',
  'user.roles.1',
  'user.profile.tags.0',
  'user.profile',
  'user',
  'company',
  'company.missing',
  'other.missing.deep',
];

export interface GeneratedContext {
  context: Record<string, unknown>;
  /** The arrays of the context, by the field that reads them. */
  arrays: Map<string, unknown[]>;
}

type SlotValue = { kind: 'absent' } | { kind: 'scalar'; value: unknown } | { kind: 'array'; value: unknown[] };

const slotValue = (allowArrays: boolean): fc.Arbitrary<SlotValue> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant<SlotValue>({ kind: 'absent' }) },
    { weight: 5, arbitrary: scalar.map((value): SlotValue => ({ kind: 'scalar', value })) },
    {
      weight: allowArrays ? 2 : 0,
      arbitrary: arrayValue.map((value): SlotValue => ({ kind: 'array', value })),
    },
  );

const rootReplacement = fc.oneof(
  { weight: 30, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, {}, 'plain', 7) },
);

export function contextArbitrary(allowArrays: boolean): fc.Arbitrary<GeneratedContext> {
  const slots = Object.fromEntries(Object.keys(SLOTS).map((field) => [field, slotValue(allowArrays)]));
  return fc
    .record({
      slots: fc.record(slots),
      roots: fc.record({ user: rootReplacement, company: rootReplacement, other: rootReplacement }),
    })
    .map(({ slots: values, roots }) => {
      const context: Record<string, unknown> = {};
      const arrays = new Map<string, unknown[]>();
      for (const [field, slot] of Object.entries(values)) {
        if (slot.kind === 'absent') continue;
        const path = SLOTS[field]!;
        let target = context;
        for (const key of path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
        target[path.at(-1)!] = slot.value;
        if (slot.kind === 'array') arrays.set(field, slot.value);
      }
      for (const [root, replacement] of Object.entries(roots)) {
        if (replacement === undefined) continue;
        context[root] = replacement;
        for (const field of [...arrays.keys()]) if (field.startsWith(`${root}.`)) arrays.delete(field);
      }
      return { context, arrays };
    });
}

const filterValue = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...DAY_COUNTS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
);

function valuesFor(operator: ContextOperator): fc.Arbitrary<string[]> {
  if (operator === 'SET' || operator === 'NOT_SET' || operator === 'IS_TRUE' || operator === 'IS_FALSE') {
    return fc.constant([]);
  }
  if (operator === 'ANY_OF' || operator === 'NOT_ANY_OF') return fc.array(filterValue, { minLength: 1, maxLength: 4 });
  return filterValue.map((value) => [value]);
}

const contextFilter: fc.Arbitrary<Filter> = fc
  .record({ field: fc.constantFrom(...FIELDS), operator: fc.constantFrom(...CONTEXT_OPERATORS) })
  .chain(({ field, operator }) =>
    valuesFor(operator).map((values): Filter => ({ type: 'context', field, operator, values })),
  );

const rolloutFilter: fc.Arbitrary<Filter> = fc
  .record({
    key: fc.option(fc.constantFrom('my-flag', 'huddles', 'new-checkout', 'k'), { nil: undefined }),
    partialRolloutAttribute: fc.constantFrom(...FIELDS),
    partialRolloutThreshold: fc.oneof(
      fc.constantFrom(0, 1, 50_000, 99_999, 100_000),
      fc.integer({ min: 0, max: 100_000 }),
    ),
  })
  .map(({ key, ...rest }): Filter => ({ type: 'rolloutPercentage', ...(key === undefined ? {} : { key }), ...rest }));

const constantFilter: fc.Arbitrary<Filter> = fc.boolean().map((value): Filter => ({ type: 'constant', value }));

export const filterArbitrary: fc.Arbitrary<Filter> = fc.letrec<{ filter: Filter }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: contextFilter },
    { weight: 2, arbitrary: rolloutFilter },
    { weight: 1, arbitrary: constantFilter },
    {
      weight: 2,
      arbitrary: fc
        .record({
          operator: fc.constantFrom('and' as const, 'or' as const),
          filters: fc.array(tie('filter'), { maxLength: 3 }),
        })
        .map((group): Filter => ({ type: 'group', ...group })),
    },
    { weight: 1, arbitrary: tie('filter').map((filter): Filter => ({ type: 'negation', filter })) },
  ),
})).filter;
