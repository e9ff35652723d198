import { Type, type Static } from '@sinclair/typebox';
import {
  DescriptionSchema,
  FlagStateVersionsSchema,
  IdSchema,
  NameSchema,
  nullable,
  SortOrderSchema,
  strictObject,
  TimestampSchema,
} from './common.js';
import { UserHeaderSchema } from './member.js';
import { StageHeaderSchema } from './stage.js';
import { Text } from './text.js';

/** stageId in flag bodies: exactly 14 characters (Flagmount ids are 14 characters). */
export const StageIdSchema = Text({ minLength: 14, maxLength: 14 });

/**
 * A flag key: min length 1 (spec). Flagmount also caps it at 255 characters: keys travel in URLs, event names and
 * every `/features` answer. The app's flagKeyFormat is checked by the service (400 not_possible), not here.
 */
export const FlagKeySchema = Text({ minLength: 1, maxLength: 255 });

const flagHeaderProperties = {
  id: IdSchema,
  key: Type.String({ minLength: 1 }),
  name: Text({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Type.String()),
  stage: Type.Optional(StageHeaderSchema),
  owner: Type.Optional(UserHeaderSchema),
  archived: Type.Boolean(),
  stale: Type.Boolean(),
  permanent: Type.Boolean(),
  createdAt: Type.Optional(TimestampSchema),
  rolledOutToEveryoneAt: Type.Optional(TimestampSchema),
  codeRefsCleanedUp: Type.Boolean(),
  codeRefsMarkedCleanUserName: Type.Optional(Type.String()),
  codeRefsMarkedCleanAt: Type.Optional(TimestampSchema),
  lastCheckAt: Type.Optional(TimestampSchema),
  noRecentChecks: Type.Boolean({ description: 'No recent access checks' }),
  lastTrackAt: Type.Optional(TimestampSchema),
};

/** Flag header (row 3). Optional fields are omitted, never null. */
export const FlagHeaderSchema = Type.Object(flagHeaderProperties, { additionalProperties: false, $id: 'FlagHeader' });
export type FlagHeader = Static<typeof FlagHeaderSchema>;

/** Flag (rows 6 and 7): the header plus parentFlagId. */
export const FlagSchema = Type.Object(
  { ...flagHeaderProperties, parentFlagId: Type.Optional(Type.String()) },
  { additionalProperties: false, $id: 'Flag' },
);
export type Flag = Static<typeof FlagSchema>;

export const FLAG_SORT_BY = [
  'name',
  'key',
  'stage',
  'autoFeedbackSurveysEnabled',
  'createdAt',
  'rolledOutToEveryoneAt',
  'environmentStatus',
  'owner',
  'lastCheck',
  'lastTrack',
  'stale',
  'archivingChecks',
] as const;
export type FlagSortBy = (typeof FLAG_SORT_BY)[number];

export const FlagSortBySchema = Type.Union(
  FLAG_SORT_BY.map((value) => Type.Literal(value)),
  { default: 'key' },
);

export const FLAG_PAGE_SIZE_DEFAULT = 50;
export const FLAG_PAGE_SIZE_MAX = 1000;

/**
 * Row 3 query ("not shown" in the spec; Flagmount's design, documented in the README). Unknown parameters are
 * ignored. Filters combine with AND; `totalCount` counts the flags that pass them, before paging.
 */
export const ListFlagsQuerySchema = Type.Object({
  pageIndex: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: '0-based page number' })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: FLAG_PAGE_SIZE_MAX, default: FLAG_PAGE_SIZE_DEFAULT }),
  ),
  sortBy: Type.Optional(FlagSortBySchema),
  sortOrder: Type.Optional(SortOrderSchema),
  search: Type.Optional(
    Text({ maxLength: 255, description: 'Case-insensitive substring of the key, the name or the description' }),
  ),
  stageId: Type.Optional(Type.String({ minLength: 1, description: 'Only flags in this stage' })),
  ownerUserId: Type.Optional(Type.String({ minLength: 1, description: 'Only flags owned by this member' })),
  archived: Type.Optional(Type.Boolean({ description: 'true: only archived flags; false: only live ones' })),
  stale: Type.Optional(Type.Boolean()),
  permanent: Type.Optional(Type.Boolean()),
  envId: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Environment whose activity gives lastCheckAt/lastTrackAt/noRecentChecks (default: all environments) and whose ' +
        'targeting gives environmentStatus (default: the first production environment)',
    }),
  ),
});
export type ListFlagsQuery = Static<typeof ListFlagsQuerySchema>;

export const ListFlagsResponseSchema = Type.Object(
  {
    data: Type.Array(FlagHeaderSchema),
    totalCount: Type.Integer({ minimum: 0 }),
    pageSize: Type.Integer({ minimum: 1 }),
    pageIndex: Type.Integer({ minimum: 0 }),
    sortBy: FlagSortBySchema,
    sortOrder: SortOrderSchema,
  },
  { additionalProperties: false },
);

/** Row 6 body. */
export const CreateFlagBodySchema = strictObject({
  key: FlagKeySchema,
  name: NameSchema,
  description: Type.Optional(nullable(DescriptionSchema)),
  stageId: Type.Optional(StageIdSchema),
  ownerUserId: Type.Optional(nullable(Type.String())),
  permanent: Type.Optional(Type.Boolean({ default: false })),
  secret: Type.Optional(Type.Boolean({ description: 'Whether the flag is secret', default: false })),
});
export type CreateFlagBody = Static<typeof CreateFlagBodySchema>;

/** Row 7 body: every field optional; null clears description or ownerUserId. */
export const UpdateFlagBodySchema = strictObject({
  name: Type.Optional(NameSchema),
  description: Type.Optional(nullable(DescriptionSchema)),
  ownerUserId: Type.Optional(nullable(Type.String())),
  permanent: Type.Optional(Type.Boolean()),
  secret: Type.Optional(Type.Boolean()),
  isArchived: Type.Optional(Type.Boolean()),
  stageId: Type.Optional(StageIdSchema),
});
export type UpdateFlagBody = Static<typeof UpdateFlagBodySchema>;

/** Rows 6 and 7 response. */
export const FlagMutationResponseSchema = Type.Object(
  { flag: FlagSchema, flagStateVersions: FlagStateVersionsSchema },
  { additionalProperties: false },
);
export type FlagMutationResponse = Static<typeof FlagMutationResponseSchema>;

export const FlagParamsSchema = Type.Object({ appId: IdSchema, flagId: IdSchema });
