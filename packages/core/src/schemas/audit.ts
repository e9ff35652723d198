import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, nullable, TimestampSchema } from './common.js';

/** Extension: one audit entry. `before`/`after` are the changed resource as stored (null on create/delete). */
export const AuditEntrySchema = Type.Object(
  {
    id: IdSchema,
    appId: nullable(Type.String()),
    envId: nullable(Type.String()),
    actor: Type.String({ description: 'Management key id, member:<memberId>, sdk:<envId> or system' }),
    actorName: nullable(Type.String({ description: "The member's name, or the management key's name; null for sdk and system" })),
    action: Type.String(),
    targetType: Type.String(),
    targetId: Type.String(),
    changeDescription: nullable(Type.String()),
    before: Type.Unknown(),
    after: Type.Unknown(),
    createdAt: TimestampSchema,
  },
  { additionalProperties: false, $id: 'AuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AUDIT_LIMIT_DEFAULT = 50;
export const AUDIT_LIMIT_MAX = 500;

export const ListAuditQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_LIMIT_MAX, default: AUDIT_LIMIT_DEFAULT })),
  before: Type.Optional(Type.String({ minLength: 1, description: 'The nextCursor of the previous page' })),
});

/** Newest first. `nextCursor` is null on the last page. */
export const ListAuditResponseSchema = Type.Object(
  { data: Type.Array(AuditEntrySchema), nextCursor: nullable(Type.String()) },
  { additionalProperties: false },
);
