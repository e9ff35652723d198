import { ConfigVariantSchema, TargetingRuleSchema } from '@flagmount/engine';
import { Type } from '@sinclair/typebox';

export const StageHeaderSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  color: Type.String(),
  order: Type.Number(),
});

/** One entry of `GET /features` (runtime-api.md, "Feature definition"); rules are in the engine's filter shape. */
export const FeatureDefinitionSchema = Type.Object(
  {
    key: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
    link: Type.Union([Type.String(), Type.Null()]),
    targeting: Type.Object({ version: Type.Integer({ minimum: 0 }), rules: Type.Array(TargetingRuleSchema) }),
    config: Type.Object({ version: Type.Integer({ minimum: 0 }), variants: Type.Array(ConfigVariantSchema) }),
    stage: Type.Union([StageHeaderSchema, Type.Null()]),
  },
  { $id: 'FeatureDefinition' },
);

export const FeaturesResponseSchema = Type.Object({
  success: Type.Literal(true),
  flagStateVersion: Type.Integer({ minimum: 0, description: 'Integer: Reflag node SDK discards anything else' }),
  features: Type.Array(FeatureDefinitionSchema),
});
