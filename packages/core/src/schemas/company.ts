import { Type, type Static } from '@sinclair/typebox';
import { EntityIdSchema } from './context.js';
import { AttributesSchema, MetaSchema, TimestampSchema } from './user.js';

export const CompanyBodySchema = Type.Object(
  {
    companyId: EntityIdSchema,
    userId: Type.Optional(EntityIdSchema),
    attributes: Type.Optional(AttributesSchema),
    timestamp: Type.Optional(TimestampSchema),
    context: Type.Optional(MetaSchema),
  },
  { $id: 'CompanyBody' },
);
export type CompanyBody = Static<typeof CompanyBodySchema>;
