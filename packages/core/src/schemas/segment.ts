import { FilterSchema } from '@flagmount/engine';
import { Type, type Static } from '@sinclair/typebox';
import { FlagStateVersionsSchema, IdSchema, NameSchema, strictObject, TimestampSchema } from './common.js';

export const SegmentTypeSchema = Type.Union([Type.Literal('all'), Type.Literal('custom')]);

/** Segment header (management-api.md). */
export const SegmentHeaderSchema = Type.Object(
  { id: IdSchema, name: Type.String({ minLength: 1 }), type: SegmentTypeSchema },
  { additionalProperties: false, $id: 'SegmentHeader' },
);
export type SegmentHeader = Static<typeof SegmentHeaderSchema>;

/** Extension: a segment with its filter (the `/features` filter shape; rules referencing it AND it in). */
export const SegmentSchema = Type.Object(
  {
    id: IdSchema,
    name: Type.String({ minLength: 1 }),
    type: SegmentTypeSchema,
    filter: FilterSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false, $id: 'Segment' },
);
export type Segment = Static<typeof SegmentSchema>;

export const SegmentParamsSchema = Type.Object({ appId: IdSchema, segmentId: IdSchema });

export const ListSegmentsResponseSchema = Type.Object({ data: Type.Array(SegmentSchema) }, { additionalProperties: false });

/** Created segments are always `custom`: the one `all` segment of an app comes with the app. */
export const CreateSegmentBodySchema = strictObject({ name: NameSchema, filter: FilterSchema });
export type CreateSegmentBody = Static<typeof CreateSegmentBodySchema>;

export const UpdateSegmentBodySchema = strictObject({ name: Type.Optional(NameSchema), filter: Type.Optional(FilterSchema) });
export type UpdateSegmentBody = Static<typeof UpdateSegmentBodySchema>;

/** A segment mutation answers the segment and the versions of every environment of the app. */
export const SegmentMutationResponseSchema = Type.Object(
  { segment: SegmentSchema, flagStateVersions: FlagStateVersionsSchema },
  { additionalProperties: false },
);
