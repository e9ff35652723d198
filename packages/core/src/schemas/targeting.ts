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

/** A flag this flag depends on: it is on only if `flagKey` (same app) evaluates to `isEnabled` for the same context. */
export const PrerequisiteSchema = strictObject({
  flagKey: Type.String({ minLength: 1, maxLength: 255 }),
  isEnabled: Type.Boolean(),
});
export type Prerequisite = Static<typeof PrerequisiteSchema>;

const targetingBodyProperties = {
  rules: Type.Array(StoredRuleSchema, { maxItems: 500 }),
  /** Omitted: the stored config is kept. `{ variants: [] }` removes it. */
  config: Type.Optional(strictObject({ variants: Type.Array(ConfigVariantSchema, { maxItems: 100 }) })),
  /** Omitted: the stored prerequisites are kept. `[]` removes them. At most 20, each flag once. */
  prerequisites: Type.Optional(Type.Array(PrerequisiteSchema, { maxItems: 20 })),
};

/**
 * A targeting to apply (what a PUT sends and what a schedule applies later). Rules are evaluated in order; a flag is
 * on when its prerequisites hold and any rule matches. At most 500 rules and 100 variants.
 */
export const TargetingBodySchema = strictObject(targetingBodyProperties);
export type TargetingBody = Static<typeof TargetingBodySchema>;

export const PutTargetingBodySchema = strictObject({
  ...targetingBodyProperties,
  /**
   * Optimistic concurrency: the `version` the editor loaded. When the stored targeting is at another version the PUT
   * is refused (400 not_possible) and nothing changes. Omitted: last write wins.
   */
  ifVersion: Type.Optional(Type.Integer({ minimum: 0 })),
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
    prerequisites: Type.Array(PrerequisiteSchema),
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
