import { Type } from '@sinclair/typebox';
import { Text } from './text.js';

/**
 * The evaluation context (runtime-api.md, "Context"): optional `user`, `company` and `other` objects. Ids are
 * strings or numbers, never arrays; attribute values are strings, numbers, booleans, null or arrays; one level of
 * nested object grouping (`user.profile.roles`) is allowed, deeper nesting is rejected.
 */

/**
 * A number id: within ±(2^53 − 1), where a JSON number is still the integer sent. Past it, 9007199254740993 reads
 * as …992: another user's id, whose stored attributes and rollout bucket it would get.
 */
const NumericIdSchema = Type.Number({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });

/** JSON numbers are accepted wherever an id is (Reflag's node SDK sends them) and stored as strings. */
export const EntityIdSchema = Type.Union([Type.String({ minLength: 1 }), NumericIdSchema], {
  description: 'A string (at least 1 character) or a number; numbers are stored as strings',
});

const ScalarSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

/**
 * Arrays are matched by whole items (CONTAINS, ANY_OF, …), so their items are plain values: an object or an array
 * inside an array would be nesting past the one level of grouping the spec allows.
 */
export const AttributeValueSchema = Type.Union([ScalarSchema, Type.Array(ScalarSchema)], {
  description: 'string, number, boolean, null, or an array of those',
});

/** The one allowed level of grouping: an object whose members are plain attribute values. */
export const AttributeGroupSchema = Type.Record(Type.String(), AttributeValueSchema, {
  description: 'one level of nested grouping (for example user.profile.roles)',
});

const MemberValueSchema = Type.Union([AttributeValueSchema, AttributeGroupSchema]);

export const EntityContextSchema = Type.Object(
  { id: Type.Optional(Type.Union([Type.String(), NumericIdSchema], { description: 'string or number, not an array' })) },
  { additionalProperties: MemberValueSchema },
);

export const OtherContextSchema = Type.Record(Type.String(), MemberValueSchema);

export const ContextSchema = Type.Object(
  {
    user: Type.Optional(EntityContextSchema),
    company: Type.Optional(EntityContextSchema),
    other: Type.Optional(OtherContextSchema),
  },
  { additionalProperties: false, $id: 'Context' },
);
/** TypeBox's static type drops `additionalProperties`; attributes are spelled out here. */
export interface EntityContext {
  id?: string | number;
  [attribute: string]: unknown;
}
// A type literal (not an interface) so it is assignable to the engine's indexed EvaluationContext.
export type Context = {
  user?: EntityContext;
  company?: EntityContext;
  other?: Record<string, unknown>;
};

/** Decoded size limit of `contextJson` (runtime-api.md, "Limits"). */
export const CONTEXT_JSON_MAX_BYTES = 16_384;

/** Query of `/features/evaluated` and `/features/enabled`; `context.*` and unknown parameters pass through. */
export const EvaluatedQuerySchema = Type.Object(
  {
    contextJson: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: `The whole context as one JSON text, at most ${CONTEXT_JSON_MAX_BYTES} bytes decoded; sent once`,
      }),
    ),
    key: Type.Optional(Text({ minLength: 1, maxLength: 255, description: 'Only this flag' })),
    waitForVersion: Type.Optional(Type.Integer({ minimum: 0, description: 'Hold until this flagStateVersion' })),
    publishableKey: Type.Optional(Type.String({ description: 'Alternative to the Authorization header' })),
  },
  { additionalProperties: true },
);

export const WaitForVersionQuerySchema = Type.Object(
  { waitForVersion: Type.Optional(Type.Integer({ minimum: 0, description: 'Hold until this flagStateVersion' })) },
  { additionalProperties: true },
);
