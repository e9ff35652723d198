import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * The filter shape of Reflag's `/features` payload. One schema serves input (management API, storage) and output
 * (runtime API), so what is stored is exactly what SDKs evaluate.
 */

export const CONTEXT_OPERATORS = [
  'IS',
  'IS_NOT',
  'ANY_OF',
  'NOT_ANY_OF',
  'CONTAINS',
  'NOT_CONTAINS',
  'GT',
  'LT',
  'AFTER',
  'BEFORE',
  'DATE_AFTER',
  'DATE_BEFORE',
  'SET',
  'NOT_SET',
  'IS_TRUE',
  'IS_FALSE',
] as const;

export type ContextOperator = (typeof CONTEXT_OPERATORS)[number];

/** Operators that take no value, exactly one, or one or more (runtime spec, "Context operators"). */
export const NO_VALUE_OPERATORS: readonly ContextOperator[] = ['SET', 'NOT_SET', 'IS_TRUE', 'IS_FALSE'];
export const MULTI_VALUE_OPERATORS: readonly ContextOperator[] = ['ANY_OF', 'NOT_ANY_OF'];

/** Reflag's clients compare the rollout hash against this scale (reflag-clients.md, decisions), not 10000. */
export const ROLLOUT_THRESHOLD_MAX = 100_000;

export const ContextOperatorSchema = Type.Union(CONTEXT_OPERATORS.map((op) => Type.Literal(op)));

/**
 * Filters are closed: a property no filter type has (a typo such as `value` for `values`, or anything else) is
 * refused rather than stored and served to every SDK (management-api.md: objects reject unknown properties).
 */
const CLOSED = { additionalProperties: false } as const;

const contextFilter = Type.Object({
  type: Type.Literal('context'),
  field: Type.String({ minLength: 1 }),
  operator: ContextOperatorSchema,
  values: Type.Array(Type.String()),
}, CLOSED);

const rolloutPercentageFilter = Type.Object({
  type: Type.Literal('rolloutPercentage'),
  // Absent means "the flag key": the hash input of Reflag's library is `key + "." + value`.
  key: Type.Optional(Type.String()),
  partialRolloutAttribute: Type.String({ minLength: 1 }),
  partialRolloutThreshold: Type.Integer({ minimum: 0, maximum: ROLLOUT_THRESHOLD_MAX }),
}, CLOSED);

const constantFilter = Type.Object({
  type: Type.Literal('constant'),
  value: Type.Boolean(),
}, CLOSED);

const groupFilter = <T extends TSchema>(self: T) =>
  Type.Object({
    type: Type.Literal('group'),
    operator: Type.Union([Type.Literal('and'), Type.Literal('or')]),
    filters: Type.Array(self),
  }, CLOSED);

const negationFilter = <T extends TSchema>(self: T) =>
  Type.Object({
    type: Type.Literal('negation'),
    filter: self,
  }, CLOSED);

export const FilterSchema = Type.Recursive(
  (Self) =>
    Type.Union([groupFilter(Self), negationFilter(Self), contextFilter, rolloutPercentageFilter, constantFilter]),
  { $id: 'Filter' },
);

export const TargetingRuleSchema = Type.Object({ filter: FilterSchema });

export const ConfigVariantSchema = Type.Object({
  key: Type.String({ minLength: 1 }),
  payload: Type.Unknown(),
  filter: FilterSchema,
}, CLOSED);

export const FlagDefinitionSchema = Type.Object({
  key: Type.String({ minLength: 1 }),
  targetingVersion: Type.Integer({ minimum: 0 }),
  rules: Type.Array(TargetingRuleSchema),
  config: Type.Optional(
    Type.Object({
      version: Type.Integer({ minimum: 0 }),
      variants: Type.Array(ConfigVariantSchema),
    }),
  ),
});

export type Filter = Static<typeof FilterSchema>;
export type ContextFilter = Extract<Filter, { type: 'context' }>;
export type GroupFilter = Extract<Filter, { type: 'group' }>;
export type NegationFilter = Extract<Filter, { type: 'negation' }>;
export type RolloutPercentageFilter = Extract<Filter, { type: 'rolloutPercentage' }>;
export type ConstantFilter = Extract<Filter, { type: 'constant' }>;
export type FilterType = Filter['type'];
export type TargetingRule = Static<typeof TargetingRuleSchema>;
export type ConfigVariant = Static<typeof ConfigVariantSchema>;
