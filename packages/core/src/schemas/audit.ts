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

/** An action (`flag.targeting.updated`), or a prefix of dot-separated words ending in `.*` (`flag.*`). ASCII only. */
export const AUDIT_ACTION_PATTERN = '^[A-Za-z0-9_:-]+(\\.[A-Za-z0-9_:-]+)*(\\.\\*)?$';

/**
 * `envId`, `actor` and `action` filter on the server, before paging: each page holds up to `limit` matching entries
 * and `nextCursor` continues the filtered walk (send the same filters with it).
 */
export const ListAuditQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_LIMIT_MAX, default: AUDIT_LIMIT_DEFAULT })),
  before: Type.Optional(Type.String({ minLength: 1, description: 'The nextCursor of the previous page' })),
  envId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only entries of this environment' })),
  actor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Only entries by this actor: a key id, member:<memberId>, sdk:<envId> or system' }),
  ),
  action: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: AUDIT_ACTION_PATTERN,
      description: 'Only this action (flag.created), or every action under a prefix ending in .* (flag.* matches flag.created and flag.schedule.applied)',
    }),
  ),
});
export type ListAuditQuery = Static<typeof ListAuditQuerySchema>;

/** Newest first. `nextCursor` is null on the last page. */
export const ListAuditResponseSchema = Type.Object(
  { data: Type.Array(AuditEntrySchema), nextCursor: nullable(Type.String()) },
  { additionalProperties: false },
);
