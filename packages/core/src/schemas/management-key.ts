import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, NameSchema, nullable, strictObject, TimestampSchema } from './common.js';

export const ManagementScopeSchema = Type.Union([
  Type.Literal('read'),
  Type.Literal('write:flags'),
  Type.Literal('write:flag:targeting'),
  Type.Literal('write:entities'),
  Type.Literal('admin'),
]);

/** A management key as listed: never the secret, only its first characters. */
export const ManagementKeySchema = Type.Object(
  {
    id: IdSchema,
    name: Type.String({ minLength: 1 }),
    scopes: Type.Array(ManagementScopeSchema),
    prefix: Type.String(),
    createdAt: TimestampSchema,
    lastUsedAt: nullable(TimestampSchema),
    revokedAt: nullable(TimestampSchema),
  },
  { additionalProperties: false, $id: 'ManagementKey' },
);
export type ManagementKey = Static<typeof ManagementKeySchema>;

export const ListManagementKeysResponseSchema = Type.Object(
  { data: Type.Array(ManagementKeySchema) },
  { additionalProperties: false },
);

export const CreateManagementKeyBodySchema = strictObject({
  name: NameSchema,
  scopes: Type.Array(ManagementScopeSchema, { minItems: 1, uniqueItems: true }),
});
export type CreateManagementKeyBody = Static<typeof CreateManagementKeyBodySchema>;

/** The secret is in this answer only: it is stored as a SHA-256 hash. */
export const CreateManagementKeyResponseSchema = Type.Object(
  { key: ManagementKeySchema, secret: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const ManagementKeyParamsSchema = Type.Object({ keyId: IdSchema });
