import type { FlagmountClient } from '@flagmount/core';

/** How long a key set is trusted without a change notice (a bare client has no change feed). */
const TTL_MS = 1000;
/** A key not in the set may be a flag created since: look again, but at most this often. */
const MISS_REFRESH_MS = 100;

/**
 * The flag keys the client's environment serves, for FLAG_NOT_FOUND: the client answers an unknown flag with
 * `isEnabled: false`, indistinguishable from a flag that is off. `getFlags` lists every served flag (and the
 * client's overrides) without recording checks; one call per refresh, not one per evaluation.
 */
export class KnownFlags {
  private keys: ReadonlySet<string> | undefined;
  private readAt = 0;

  constructor(private readonly client: FlagmountClient) {}

  invalidate(): void {
    this.keys = undefined;
  }

  has(flagKey: string): boolean {
    const now = Date.now();
    if (!this.keys || now - this.readAt > TTL_MS) this.refresh(now);
    if (this.keys!.has(flagKey)) return true;
    if (now - this.readAt < MISS_REFRESH_MS) return false;
    this.refresh(now);
    return this.keys!.has(flagKey);
  }

  private refresh(now: number): void {
    this.keys = new Set(Object.keys(this.client.getFlags({ enableTracking: false })));
    this.readAt = now;
  }
}
