import { Type, type Static } from '@sinclair/typebox';

/** Item types of `POST /bulk`; each item carries the fields of the matching single endpoint. */
export const BULK_ITEM_TYPES = ['user', 'company', 'event', 'feature-flag-event', 'feedback', 'prompt-event'] as const;
export type BulkItemType = (typeof BULK_ITEM_TYPES)[number];

/**
 * The body must be an array of objects, or nothing is stored (400). Each object is then validated on its own
 * against its type's schema: an invalid one is skipped and reported, so one odd item never costs the others
 * (Reflag's node SDK drops a whole batch on any non-2xx answer).
 */
export const BulkBodySchema = Type.Array(
  Type.Object(
    {},
    {
      additionalProperties: true,
      description: `An operation: type (${BULK_ITEM_TYPES.join(', ')}) and the fields of the matching endpoint`,
    },
  ),
  { $id: 'BulkBody' },
);
export type BulkBody = Static<typeof BulkBodySchema>;

export const BulkRejectionSchema = Type.Object({
  index: Type.Integer({ minimum: 0, description: 'Position of the skipped item in the request array' }),
  issues: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Field path to messages' }),
});
export type BulkRejection = Static<typeof BulkRejectionSchema>;

export const BulkResponseSchema = Type.Object({
  success: Type.Literal(true),
  rejected: Type.Array(BulkRejectionSchema, { description: 'Items that were skipped; all others were stored' }),
});

export const SuccessResponseSchema = Type.Object({ success: Type.Literal(true) });
