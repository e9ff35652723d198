import { LRUCache } from 'lru-cache';
import { mutate } from '../domain/mutation.js';
import type { Services } from '../services.js';
import type { Storage } from '../storage/port.js';
import type { MemberRecord } from '../storage/records.js';
import type { Person } from './person.js';

/** Who was last written as what, per store: a signed-in person costs no store read once their member is current. */
const synced = new WeakMap<Storage, LRUCache<string, string>>();
const MAX_REMEMBERED = 10_000;

/** The audit actor of a signed-in person: their member id, recognisable beside key ids (`mk…`). */
export const personActor = (id: string): string => `member:${id}`;

/**
 * Makes the signed-in person a member of the organisation, name and email kept current (an absent email keeps the
 * stored one). A member id of another organisation is left alone. A store that cannot be written is logged and the
 * request goes on: reading flags must not depend on it.
 */
export async function syncMember(services: Services, orgId: string, person: Person): Promise<void> {
  let seen = synced.get(services.storage);
  if (!seen) synced.set(services.storage, (seen = new LRUCache({ max: MAX_REMEMBERED })));
  const stamp = `${orgId}\n${person.name}\n${person.email ?? ''}`;
  if (seen.get(person.id) === stamp) return;
  try {
    await mutate(services, { orgId, actor: personActor(person.id) }, async (tx) => {
      const before = await tx.members.get(person.id);
      if (before && before.orgId !== orgId) return;
      const row: MemberRecord = {
        id: person.id,
        orgId,
        name: person.name,
        email: person.email ?? before?.email ?? '',
        avatarUrl: before?.avatarUrl ?? null,
      };
      if (before && before.name === row.name && before.email === row.email) return;
      await tx.members.upsert(row);
      const action = before ? 'member.updated' : 'member.created';
      tx.recordAudit({ appId: null, envId: null, action, targetType: 'member', targetId: row.id, changeDescription: 'Signed in through the host', before: before ?? null, after: row });
    });
    seen.set(person.id, stamp);
  } catch (error) {
    services.logger.warn('flagmount: could not record the signed-in person as a member', { error, memberId: person.id });
  }
}
