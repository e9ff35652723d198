import { mutate } from '../../domain/mutation.js';
import { notFound } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import { ListMembersResponseSchema, MemberParamsSchema, PutMemberBodySchema, UserHeaderSchema } from '../../schemas/member.js';
import type { MemberRecord } from '../../storage/records.js';
import { actorOf, orgIdOf } from '../access.js';
import { toUserHeader } from '../views.js';

/**
 * Members: the organisation's people, i.e. who may own a flag (`ownerUserId` must name one, else 400
 * not_possible). Flagmount has no login of its own, so the host registers its users here under its own user ids.
 * Owner data is not served by `/features`: member writes move no version.
 */

export const listMembersRoute = defineRoute({
  method: 'GET',
  path: '/members',
  operationId: 'listMembers',
  summary: 'List the members of the organization',
  surface: 'management',
  tags: ['Members'],
  auth: { kind: 'management', scope: 'read' },
  response: ListMembersResponseSchema,
  async handle({ principal, services }) {
    const orgId = orgIdOf(principal);
    return { data: (await services.storage.members.listByOrg(orgId)).map(toUserHeader) };
  },
});

export const getMemberRoute = defineRoute({
  method: 'GET',
  path: '/members/{memberId}',
  operationId: 'getMember',
  summary: 'Get a member',
  surface: 'management',
  tags: ['Members'],
  auth: { kind: 'management', scope: 'read' },
  params: MemberParamsSchema,
  response: UserHeaderSchema,
  async handle({ params, principal, services }) {
    const orgId = orgIdOf(principal);
    const member = await services.storage.members.get(params.memberId);
    if (!member || member.orgId !== orgId) throw notFound(`Member ${params.memberId}`);
    return toUserHeader(member);
  },
});

/**
 * Creates or replaces a member (idempotent). Member ids are global in a store, so an id already used by another
 * organisation is refused as not found rather than overwritten or revealed.
 */
export const putMemberRoute = defineRoute({
  method: 'PUT',
  path: '/members/{memberId}',
  operationId: 'putMember',
  summary: 'Create or replace a member',
  surface: 'management',
  tags: ['Members'],
  auth: { kind: 'management', scope: 'admin' },
  params: MemberParamsSchema,
  body: PutMemberBodySchema,
  response: UserHeaderSchema,
  async handle({ params, body, principal, services }) {
    const actor = actorOf(principal);
    const { result } = await mutate(services, actor, async (tx) => {
      const before = await tx.members.get(params.memberId);
      if (before && before.orgId !== actor.orgId) throw notFound(`Member ${params.memberId}`);
      const row: MemberRecord = { id: params.memberId, orgId: actor.orgId, name: body.name, email: body.email, avatarUrl: body.avatarUrl ?? null };
      if (before && before.name === row.name && before.email === row.email && before.avatarUrl === row.avatarUrl) return before;
      await tx.members.upsert(row);
      tx.recordAudit({ appId: null, envId: null, action: before ? 'member.updated' : 'member.created', targetType: 'member', targetId: row.id, changeDescription: null, before: before ?? null, after: row });
      return row;
    });
    return toUserHeader(result);
  },
});
