import { Type, type Static } from '@sinclair/typebox';
import { EntityIdSchema } from './context.js';

/** Attributes are one object; an array stays one attribute and replaces the stored list whole. */
export const AttributesSchema = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Attributes merged into the stored ones key by key; arrays are one attribute',
});

export const TimestampSchema = Type.String({ format: 'date-time', description: 'ISO 8601 date-time' });

/** Reflag SDKs attach `{ active?: boolean }` metadata as `context`; accepted and not stored. */
export const MetaSchema = Type.Record(Type.String(), Type.Unknown());

export const UserBodySchema = Type.Object(
  {
    userId: EntityIdSchema,
    attributes: Type.Optional(AttributesSchema),
    timestamp: Type.Optional(TimestampSchema),
    context: Type.Optional(MetaSchema),
  },
  { $id: 'UserBody' },
);
export type UserBody = Static<typeof UserBodySchema>;
