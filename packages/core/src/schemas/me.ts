import { Type, type Static } from '@sinclair/typebox';

const RoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]);
const ScopeSchema = Type.Union([
  Type.Literal('read'),
  Type.Literal('write:flags'),
  Type.Literal('write:flag:targeting'),
  Type.Literal('write:entities'),
  Type.Literal('admin'),
]);

/** A person signed in by the host. `environments`: environment id → role, where it differs from `role`. */
export const PersonActorSchema = Type.Object(
  {
    type: Type.Literal('person'),
    id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    email: Type.Optional(Type.String()),
    role: RoleSchema,
    environments: Type.Optional(Type.Record(Type.String(), RoleSchema)),
  },
  { additionalProperties: false, $id: 'PersonActor' },
);

/** A management API key (Bearer). */
export const KeyActorSchema = Type.Object(
  { type: Type.Literal('key'), id: Type.String({ minLength: 1 }), name: Type.String(), scopes: Type.Array(ScopeSchema) },
  { additionalProperties: false, $id: 'KeyActor' },
);

/** Extension: who is calling, for the dashboard to show it and to offer only what the caller may do. */
export const MeResponseSchema = Type.Object(
  { actor: Type.Union([PersonActorSchema, KeyActorSchema]) },
  { additionalProperties: false, $id: 'Me' },
);
export type MeResponse = Static<typeof MeResponseSchema>;
