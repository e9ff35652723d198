import { SlotCache } from './slot-cache.js';

export const USER = 0;
export const COMPANY = 1;
/** The owner of a context with neither user nor company id: no entity rows, its checks in the check cache. */
export const ANONYMOUS = 2;

/** After the check fields (slot-cache.ts): the context sync's. */
export const SYNCED_AT = 4;
export const ATTRIBUTES_HASH = 5;
/** The serial of the pending sync row, -1 none. */
export const SYNC = 6;
/** The company a user was last associated with. */
export const MEMBER_OF = 3;

const FIRST_SIZE = 1024;
/** Users and companies remembered; beyond, the least recently met of a set is forgotten. */
export const MAX_ENTITIES = 131_072;

/**
 * What the client remembers of each user and company: for the node SDK's context sync, the hash of the attributes
 * last synced and when, and the company a user was last associated with; and inline, its first flag's check (a user
 * usually meets one or a few flags: the first costs no second cache). Other flags live in the CheckCache.
 */
export class EntityCache extends SlotCache {
  constructor(size = FIRST_SIZE, maxSize = MAX_ENTITIES) {
    super(size, maxSize, 8, 4, [-1, -Infinity, -1, 0, -Infinity, 0, -1, 0]);
  }

  grown(): EntityCache {
    return this.copyInto(new EntityCache(this.size * 2, this.maxSize));
  }
}
