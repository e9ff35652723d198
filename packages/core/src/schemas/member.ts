import { Type, type Static } from '@sinclair/typebox';
import { NameSchema, nullable, strictObject } from './common.js';
import { Text } from './text.js';

/**
 * Members are the people of the organisation: flag owners (`ownerUserId`) and, later, audit actors. Flagmount has
 * no user accounts of its own, so a member's id is the host's own user id (1..128 characters) and the host (or an
 * admin script) registers members with `PUT /members/{memberId}`.
 */
export const MemberIdSchema = Text({ minLength: 1, maxLength: 128 });

/** User header (flag owner) as the spec shows it: avatarUrl is omitted when there is none. */
export const UserHeaderSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    email: Type.String({ format: 'email' }),
    avatarUrl: Type.Optional(Type.String({ format: 'uri' })),
  },
  { additionalProperties: false, $id: 'UserHeader' },
);
export type UserHeader = Static<typeof UserHeaderSchema>;

export const MemberParamsSchema = Type.Object({ memberId: MemberIdSchema });

export const ListMembersResponseSchema = Type.Object({ data: Type.Array(UserHeaderSchema) }, { additionalProperties: false });

/** Extension: create or replace a member (idempotent). `avatarUrl: null` or omitted means no avatar. */
export const PutMemberBodySchema = strictObject({
  name: NameSchema,
  email: Text({ format: 'email', maxLength: 320 }),
  avatarUrl: Type.Optional(nullable(Text({ format: 'uri', maxLength: 2048 }))),
});
export type PutMemberBody = Static<typeof PutMemberBodySchema>;
