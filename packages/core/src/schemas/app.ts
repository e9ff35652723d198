import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, NameSchema, strictObject } from './common.js';
import { EnvironmentHeaderSchema, EnvironmentSchema } from './environment.js';
import { OrganizationHeaderSchema } from './organization.js';
import { SegmentHeaderSchema } from './segment.js';
import { StageHeaderSchema } from './stage.js';

export const FLAG_KEY_FORMATS = [
  'custom',
  'pascalCase',
  'camelCase',
  'snakeCaseUpper',
  'snakeCaseLower',
  'kebabCaseUpper',
  'kebabCaseLower',
] as const;

export const FlagKeyFormatSchema = Type.Union(
  FLAG_KEY_FORMATS.map((format) => Type.Literal(format)),
  { description: 'The key format enforced when flags are created' },
);

const appHeaderProperties = {
  org: OrganizationHeaderSchema,
  id: IdSchema,
  name: Type.String(),
  demo: Type.Boolean({ description: 'Whether the app is a demo app' }),
  flagKeyFormat: FlagKeyFormatSchema,
};

/** App header (row 1). */
export const AppHeaderSchema = Type.Object(
  { ...appHeaderProperties, environments: Type.Array(EnvironmentHeaderSchema) },
  { additionalProperties: false, $id: 'AppHeader' },
);
export type AppHeader = Static<typeof AppHeaderSchema>;

/** App (row 2): full environments, stages and segments. */
export const AppSchema = Type.Object(
  {
    ...appHeaderProperties,
    environments: Type.Array(EnvironmentSchema),
    stages: Type.Array(StageHeaderSchema),
    segments: Type.Array(SegmentHeaderSchema),
  },
  { additionalProperties: false, $id: 'App' },
);
export type App = Static<typeof AppSchema>;

export const ListAppsQuerySchema = Type.Object({ orgId: Type.Optional(Type.String({ minLength: 1 })) });
export const ListAppsResponseSchema = Type.Object({ data: Type.Array(AppHeaderSchema) }, { additionalProperties: false });

/**
 * Extension: create an app in the key's organisation. It comes with what bootstrap creates: Development (order 0)
 * and Production (order 1, isProduction) with SDK keys, the default stages and the `All` segment.
 */
export const CreateAppBodySchema = strictObject({
  name: NameSchema,
  flagKeyFormat: Type.Optional(FlagKeyFormatSchema),
  demo: Type.Optional(Type.Boolean()),
});
export type CreateAppBody = Static<typeof CreateAppBodySchema>;

/** Extension: a new flagKeyFormat applies to flags created afterwards; existing keys are kept. */
export const UpdateAppBodySchema = strictObject({
  name: Type.Optional(NameSchema),
  flagKeyFormat: Type.Optional(FlagKeyFormatSchema),
  demo: Type.Optional(Type.Boolean()),
});
export type UpdateAppBody = Static<typeof UpdateAppBodySchema>;
