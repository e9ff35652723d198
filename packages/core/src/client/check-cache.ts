import { SlotCache } from './slot-cache.js';

const FIRST_SIZE = 1024;
/** (entity, flag) pairs beyond each entity's first flag remembered; beyond, the least recently met is forgotten. */
export const MAX_CHECKS = 131_072;

/** The key hash of an entity's check of a flag. */
export function checkHash(entityHash: number, flagHash: number): number {
  return Math.imul(entityHash ^ Math.imul(flagHash, 0x01000193), 0x85ebca6b);
}

/**
 * Per (entity, flag, check or config check), for the flags an entity meets beyond its first (held in the
 * EntityCache) and for the anonymous context: the last check counted with it as the context's owner (its
 * targeting version, result, company and time: the node SDK's one-minute dedupe), and its pending counts row.
 */
export class CheckCache extends SlotCache {
  constructor(size = FIRST_SIZE, maxSize = MAX_CHECKS) {
    super(size, maxSize, 4, 3, [-1, -Infinity, -1, 0]);
  }

  grown(): CheckCache {
    return this.copyInto(new CheckCache(this.size * 2, this.maxSize));
  }
}
