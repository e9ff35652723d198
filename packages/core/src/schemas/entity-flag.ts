import { Type, type Static } from '@sinclair/typebox';
import {
  EntityIdSchema,
  IdSchema,
  NotificationDestinationSchema,
  NullableTimestampSchema,
  nullable,
  strictObject,
  TimestampSchema,
} from './common.js';
import { Text } from './text.js';

/** Entity flag: one flag as seen by one user or company (rows 8–11); every field required. */
export const EntityFlagSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    key: Type.String({ minLength: 1 }),
    name: Text({ minLength: 1, maxLength: 255 }),
    createdAt: TimestampSchema,
    value: Type.Boolean({ description: 'Whether the flag is enabled for the entity' }),
    specificTargetValue: Type.Union([Type.Literal(true), Type.Null()]),
    firstExposureAt: NullableTimestampSchema,
    lastExposureAt: NullableTimestampSchema,
    lastCheckAt: NullableTimestampSchema,
    exposureCount: Type.Integer({ minimum: 0 }),
    firstTrackAt: NullableTimestampSchema,
    lastTrackAt: NullableTimestampSchema,
    trackCount: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, $id: 'EntityFlag' },
);
export type EntityFlag = Static<typeof EntityFlagSchema>;

const entityFlagsPage = {
  data: Type.Array(EntityFlagSchema),
  totalCount: Type.Integer({ minimum: 0 }),
  pageSize: Type.Integer({ minimum: 0 }),
  pageIndex: Type.Integer({ minimum: 0 }),
};

/** Rows 8 and 10: every flag of the app, by key, on one page (the spec gives these rows no query parameters). */
export const EntityFlagsResponseSchema = Type.Object(entityFlagsPage, { additionalProperties: false });
export type EntityFlagsResponse = Static<typeof EntityFlagsResponseSchema>;

/** Rows 9 and 11. */
export const UpdateEntityFlagsResponseSchema = Type.Object(
  { ...entityFlagsPage, flagStateVersion: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type UpdateEntityFlagsResponse = Static<typeof UpdateEntityFlagsResponseSchema>;

export const UpdateEntityFlagsBodySchema = strictObject({
  updates: Type.Array(
    strictObject({
      flagKey: Type.String({ minLength: 1 }),
      specificTargetValue: Type.Union([Type.Literal(true), Type.Null()], {
        description: 'true adds a specific-targeting override; null removes it. false is not accepted',
      }),
    }),
    { minItems: 1, maxItems: 1000 },
  ),
  changeDescription: Type.Optional(Text({ maxLength: 8192 })),
  notifications: Type.Optional(
    Type.Array(NotificationDestinationSchema, {
      description: 'Omitted: the configured defaults. [] sends none. A destination listed twice is notified once',
    }),
  ),
});
export type UpdateEntityFlagsBody = Static<typeof UpdateEntityFlagsBodySchema>;

export const UserParamsSchema = Type.Object({ appId: IdSchema, envId: IdSchema, userId: EntityIdSchema });
export const CompanyParamsSchema = Type.Object({ appId: IdSchema, envId: IdSchema, companyId: EntityIdSchema });

/** Extension: entity upsert (upsertUser / upsertCompany). Attributes are merged into the stored ones. */
export const UpsertEntityBodySchema = strictObject({
  name: Type.Optional(nullable(Text({ maxLength: 255 }))),
  attributes: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 255 }), Type.Unknown())),
});
export type UpsertEntityBody = Static<typeof UpsertEntityBodySchema>;

/** The entity as stored ("an upsert result carries the entity id"). */
export const EntitySchema = Type.Object(
  {
    id: EntityIdSchema,
    name: nullable(Type.String()),
    attributes: Type.Record(Type.String(), Type.Unknown()),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false, $id: 'Entity' },
);
export type Entity = Static<typeof EntitySchema>;

export const ENTITY_SEARCH_LIMIT_DEFAULT = 50;
export const ENTITY_SEARCH_LIMIT_MAX = 200;

/** Extension: look users or companies up by id prefix or name (the dashboard's Users and Companies pages). */
export const ListEntitiesQuerySchema = Type.Object({
  search: Type.Optional(Text({ maxLength: 128, description: 'Start of the id, or part of the name (ASCII letters case-insensitive); empty: all' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ENTITY_SEARCH_LIMIT_MAX, default: ENTITY_SEARCH_LIMIT_DEFAULT })),
  after: Type.Optional(Text({ minLength: 1, maxLength: 128, description: 'The nextCursor of the previous page' })),
});

/** By id, ascending. `nextCursor` is null on the last page. */
export const ListEntitiesResponseSchema = Type.Object(
  { data: Type.Array(EntitySchema), nextCursor: nullable(Type.String()) },
  { additionalProperties: false },
);
export type ListEntitiesResponse = Static<typeof ListEntitiesResponseSchema>;

export const DeleteCompanyQuerySchema = Type.Object({
  deleteUsers: Type.Optional(Type.Boolean({ default: false, description: 'Also delete the users of the company' })),
});

/** Deleting an entity also removes its overrides, which changes flag state: the answer carries the version. */
export const DeleteEntityResponseSchema = Type.Object(
  {
    id: EntityIdSchema,
    deleted: Type.Literal(true),
    deletedUserIds: Type.Optional(Type.Array(EntityIdSchema)),
    flagStateVersion: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
