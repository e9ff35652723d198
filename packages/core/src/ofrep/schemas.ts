import { Type, type Static } from '@sinclair/typebox';

/**
 * OpenFeature Remote Evaluation Protocol (OFREP) v1 shapes, as its OpenAPI description defines them. They live
 * here once: the routes validate with them and the OpenAPI document shows them.
 */

export const OFREP_CONTEXT_DESCRIPTION =
  'OpenFeature evaluation context, mapped to a Flagmount context: `targetingKey` → `user.id`; `companyId` → ' +
  '`company.id`; `user`, `company` and `other` objects and dotted keys (`company.plan`, `user.role`, `other.x`) ' +
  'go to that member; every other attribute is a user attribute. Stored attributes of the user and company are ' +
  'merged underneath (sent values win), as for `/features/evaluated`.';

/** The member every OFREP body has. Its content is checked by the route (INVALID_CONTEXT), not by the envelope. */
export const OfrepContextSchema = Type.Object(
  { targetingKey: Type.Optional(Type.String({ description: 'The user id' })) },
  { additionalProperties: true, description: OFREP_CONTEXT_DESCRIPTION, $id: 'OfrepContext' },
);

/**
 * The envelope the HTTP layer validates. `context` is left open there, so that a context Flagmount cannot use is
 * answered in OFREP's own error shape (`INVALID_CONTEXT`) rather than Flagmount's error body, which OFREP
 * providers would not understand.
 */
export const OfrepRequestEnvelopeSchema = Type.Union([
  Type.Object({ context: Type.Optional(Type.Unknown({ description: OFREP_CONTEXT_DESCRIPTION })) }, { additionalProperties: true }),
  // OFREP makes the body optional: no body is an empty context.
  Type.Undefined(),
]);

/** What the OpenAPI document shows as the request body (the envelope with the documented context). */
export const OfrepEvaluationRequestSchema = Type.Object(
  { context: Type.Optional(OfrepContextSchema) },
  { $id: 'OfrepEvaluationRequest' },
);

export const OfrepFlagKeyParamsSchema = Type.Object({ key: Type.String({ minLength: 1, maxLength: 255 }) });

const MetadataSchema = Type.Record(Type.String(), Type.Union([Type.Boolean(), Type.String(), Type.Number()]), {
  description:
    'isEnabled, targetingVersion, configVersion, configKey, remoteContextUsed and, when a rule needed a field ' +
    'the context lacked, missingContextFields (comma separated)',
});

export const OfrepEvaluationSuccessSchema = Type.Object(
  {
    key: Type.String(),
    value: Type.Unknown({
      description: 'The config payload when a config variant matched (and has a payload), else isEnabled',
    }),
    reason: Type.Union([Type.Literal('TARGETING_MATCH'), Type.Literal('SPLIT'), Type.Literal('DEFAULT')]),
    variant: Type.String({ description: 'The config variant key, else "on" or "off"' }),
    metadata: MetadataSchema,
  },
  { $id: 'OfrepEvaluationSuccess' },
);
export type OfrepEvaluationSuccess = Static<typeof OfrepEvaluationSuccessSchema>;

export const OfrepErrorCodeSchema = Type.Union(
  ['PARSE_ERROR', 'TARGETING_KEY_MISSING', 'INVALID_CONTEXT', 'GENERAL', 'FLAG_NOT_FOUND'].map((code) => Type.Literal(code)),
);

export const OfrepEvaluationFailureSchema = Type.Object(
  { key: Type.String(), errorCode: OfrepErrorCodeSchema, errorDetails: Type.Optional(Type.String()) },
  { $id: 'OfrepEvaluationFailure' },
);
export type OfrepEvaluationFailure = Static<typeof OfrepEvaluationFailureSchema>;

export const OfrepBulkEvaluationSuccessSchema = Type.Object(
  { flags: Type.Array(Type.Union([OfrepEvaluationSuccessSchema, OfrepEvaluationFailureSchema])) },
  { $id: 'OfrepBulkEvaluationSuccess' },
);

export const OfrepBulkEvaluationFailureSchema = Type.Object(
  { errorCode: OfrepErrorCodeSchema, errorDetails: Type.Optional(Type.String()) },
  { $id: 'OfrepBulkEvaluationFailure' },
);
