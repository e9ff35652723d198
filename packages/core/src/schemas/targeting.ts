import { ConfigVariantSchema, FilterSchema } from '@flagmount/engine';
import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, strictObject, TimestampSchema } from './common.js';

/**
 * Extension: a flag's targeting in one environment, in the very filter shape of `/features` (one schema for input
 * and output). A rule with `segmentId` matches when the segment's filter AND the rule's filter match; rollout
 * thresholds are on the 0..100000 scale and a rollout without `key` hashes with the flag key.
 */
export const StoredRuleSchema = strictObject({
  filter: FilterSchema,
  segmentId: Type.Optional(IdSchema),
});

export const TargetingParamsSchema = Type.Object({ appId: IdSchema, flagKey: Type.String({ minLength: 1 }), envId: IdSchema });

/** Rules are evaluated in order; a flag is on when any rule matches. At most 500 rules and 100 variants. */
export const PutTargetingBodySchema = strictObject({
  rules: Type.Array(StoredRuleSchema, { maxItems: 500 }),
  /** Omitted: the stored config is kept. `{ variants: [] }` removes it. */
  config: Type.Optional(strictObject({ variants: Type.Array(ConfigVariantSchema, { maxItems: 100 }) })),
  ifVersion: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Optimistic concurrency: the targeting `version` the change was made on; another version → 400 not_possible',
    }),
  ),
});
export type PutTargetingBody = Static<typeof PutTargetingBodySchema>;

export const TargetingSchema = Type.Object(
  {
    flagId: IdSchema,
    flagKey: Type.String({ minLength: 1 }),
    envId: IdSchema,
    /** The flag's targetingVersion in this environment (what SDKs report in check events). */
    version: Type.Integer({ minimum: 0 }),
    rules: Type.Array(StoredRuleSchema),
    config: Type.Object(
      { version: Type.Integer({ minimum: 0 }), variants: Type.Array(ConfigVariantSchema) },
      { additionalProperties: false },
    ),
    /** Null until the targeting was first written. */
    updatedAt: Type.Union([TimestampSchema, Type.Null()]),
  },
  { additionalProperties: false, $id: 'Targeting' },
);
export type Targeting = Static<typeof TargetingSchema>;

export const TargetingMutationResponseSchema = Type.Object(
  { targeting: TargetingSchema, flagStateVersion: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
