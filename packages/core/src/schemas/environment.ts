import { Type, type Static } from '@sinclair/typebox';
import { AppEnvParamsSchema, IdSchema, NameSchema, OrderSchema, SortOrderSchema, strictObject } from './common.js';
import { Text } from './text.js';

const environmentHeaderProperties = {
  id: IdSchema,
  name: Type.String(),
  isProduction: Type.Boolean(),
  order: Type.Integer({ minimum: 0, description: 'Zero-indexed position in the app' }),
  flagStateVersion: Type.Integer({ minimum: 0, description: 'Incremented when flag state of the environment changes' }),
};

export const EnvironmentHeaderSchema = Type.Object(environmentHeaderProperties, {
  additionalProperties: false,
  $id: 'EnvironmentHeader',
});
export type EnvironmentHeader = Static<typeof EnvironmentHeaderSchema>;

/** SDK keys: 1..36 characters (Flagmount generates 36). */
export const SdkAccessSchema = Type.Object(
  {
    publishableKey: Text({ minLength: 1, maxLength: 36 }),
    secretKey: Text({ minLength: 1, maxLength: 36 }),
  },
  { additionalProperties: false },
);

export const EnvironmentSchema = Type.Object(
  { ...environmentHeaderProperties, sdkAccess: SdkAccessSchema },
  { additionalProperties: false, $id: 'Environment' },
);
export type Environment = Static<typeof EnvironmentSchema>;

export const EnvironmentSortBySchema = Type.Union([Type.Literal('name'), Type.Literal('order')], { default: 'order' });

/** Row 4 query. */
export const ListEnvironmentsQuerySchema = Type.Object({
  sortOrder: Type.Optional(SortOrderSchema),
  sortBy: Type.Optional(EnvironmentSortBySchema),
});

export const ListEnvironmentsResponseSchema = Type.Object(
  {
    data: Type.Array(EnvironmentHeaderSchema),
    sortOrder: SortOrderSchema,
    sortBy: EnvironmentSortBySchema,
  },
  { additionalProperties: false },
);

export const EnvironmentParamsSchema = AppEnvParamsSchema;

/** Extension: create an environment. It is appended at the end (order = number of environments) unless `order` says otherwise. */
export const CreateEnvironmentBodySchema = strictObject({
  name: NameSchema,
  isProduction: Type.Optional(Type.Boolean({ default: false })),
  order: Type.Optional(OrderSchema),
});
export type CreateEnvironmentBody = Static<typeof CreateEnvironmentBodySchema>;

/** Extension: update an environment. Setting `order` moves it and renumbers the others 0..n-1. */
export const UpdateEnvironmentBodySchema = strictObject({
  name: Type.Optional(NameSchema),
  isProduction: Type.Optional(Type.Boolean()),
  order: Type.Optional(OrderSchema),
});
export type UpdateEnvironmentBody = Static<typeof UpdateEnvironmentBodySchema>;

/** Extension: replace one or both SDK keys; the old ones stop working at once. */
export const RotateKeysBodySchema = strictObject({
  which: Type.Union([Type.Literal('publishable'), Type.Literal('secret'), Type.Literal('both')]),
});
export type RotateKeysBody = Static<typeof RotateKeysBodySchema>;
