import { Type, type Static } from '@sinclair/typebox';
import { EntityIdSchema } from './context.js';
import { AttributesSchema, MetaSchema, TimestampSchema } from './user.js';

export const EventBodySchema = Type.Object(
  {
    userId: EntityIdSchema,
    event: Type.String({ minLength: 1, description: 'Usually a flag key: counted as a track of that flag' }),
    companyId: Type.Optional(EntityIdSchema),
    attributes: Type.Optional(AttributesSchema),
    timestamp: Type.Optional(TimestampSchema),
    context: Type.Optional(MetaSchema),
  },
  { $id: 'EventBody' },
);
export type EventBody = Static<typeof EventBodySchema>;
