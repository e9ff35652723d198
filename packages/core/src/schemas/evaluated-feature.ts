import { Type, type Static } from '@sinclair/typebox';
import { StageHeaderSchema } from './features.js';

export const EvaluationErrorSchema = Type.Object({
  code: Type.Union([Type.Literal('MISSING_CONTEXT_FIELD'), Type.Literal('UNSUPPORTED_ARRAY_OPERATOR')]),
  field: Type.String(),
  operator: Type.String(),
  message: Type.String(),
});

export const OptInSchema = Type.Object({
  userOptedIn: Type.Boolean(),
  companyOptedIn: Type.Boolean(),
  isOptedIn: Type.Boolean(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
});

/** `key` is what Reflag's clients read, `name` what the spec calls the variant: both carry the variant key. */
export const EvaluatedConfigSchema = Type.Object({
  key: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  version: Type.Number(),
  default: Type.Boolean({ description: 'true when no variant matched (key, name and payload are null)' }),
  payload: Type.Unknown(),
  ruleEvaluationResults: Type.Array(Type.Boolean()),
  evaluationErrors: Type.Array(EvaluationErrorSchema),
  missingContextFields: Type.Array(Type.String(), { description: 'Legacy; use evaluationErrors' }),
});

export const EvaluatedFeatureSchema = Type.Object(
  {
    key: Type.String(),
    targetingVersion: Type.Number(),
    isEnabled: Type.Boolean(),
    optInEnabled: Type.Boolean(),
    optIn: OptInSchema,
    stage: Type.Union([StageHeaderSchema, Type.Null()]),
    config: EvaluatedConfigSchema,
    ruleEvaluationResults: Type.Array(Type.Boolean()),
    evaluationErrors: Type.Array(EvaluationErrorSchema),
    missingContextFields: Type.Array(Type.String(), { description: 'Legacy; use evaluationErrors' }),
  },
  { $id: 'EvaluatedFeature' },
);
export type EvaluatedFeature = Static<typeof EvaluatedFeatureSchema>;

export const EvaluatedFeaturesResponseSchema = Type.Object({
  success: Type.Literal(true),
  flagStateVersion: Type.Integer({ minimum: 0 }),
  features: Type.Record(Type.String(), EvaluatedFeatureSchema),
  remoteContextUsed: Type.Boolean(),
});
