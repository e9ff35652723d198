import { Type, type Static } from '@sinclair/typebox';

/** Up to this many ids of each direction in a preview's `sample`. */
export const PREVIEW_SAMPLE_SIZE = 20;

const IdSample = Type.Array(Type.String(), { maxItems: PREVIEW_SAMPLE_SIZE });

/** The impact of a proposed targeting on one kind of stored entity. */
export const PreviewCountsSchema = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    enabledNow: Type.Integer({ minimum: 0 }),
    enabledAfter: Type.Integer({ minimum: 0 }),
    turnedOn: Type.Integer({ minimum: 0 }),
    turnedOff: Type.Integer({ minimum: 0 }),
    /** The first ids (by id) the change turns on and off. */
    sample: Type.Object({ turnedOn: IdSample, turnedOff: IdSample }, { additionalProperties: false }),
  },
  { additionalProperties: false, $id: 'PreviewCounts' },
);
export type PreviewCounts = Static<typeof PreviewCountsSchema>;

/**
 * Extension: who a targeting change would affect, evaluated against every stored user and company of the
 * environment with its stored attributes (as `/features/evaluated` would for that entity's id alone).
 */
export const TargetingPreviewSchema = Type.Object(
  { users: PreviewCountsSchema, companies: PreviewCountsSchema },
  { additionalProperties: false, $id: 'TargetingPreview' },
);
export type TargetingPreview = Static<typeof TargetingPreviewSchema>;
