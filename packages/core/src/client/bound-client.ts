import type { BootstrappedFlags } from './bootstrap.js';
import type { FlagmountClient } from './flagmount-client.js';
import type { FlagContext, FlagKey, TrackOptions, TypedFlag, TypedFlags } from './types.js';

/**
 * A client bound to one context, as the node SDK's `bindClient(context)` returns: the same methods without the
 * context argument. `bindClient(more)` merges `more` into the bound context member by member.
 */
export class BoundFlagmountClient {
  constructor(
    private readonly client: FlagmountClient,
    private readonly context: FlagContext,
  ) {}

  get user(): FlagContext['user'] {
    return this.context.user;
  }

  get company(): FlagContext['company'] {
    return this.context.company;
  }

  get otherContext(): FlagContext['other'] {
    return this.context.other;
  }

  isEnabled(flagKey: FlagKey): boolean {
    return this.client.isEnabled(flagKey, this.context);
  }

  getFlag<K extends FlagKey>(flagKey: K): TypedFlag<K> {
    return this.client.getFlag(this.context, flagKey);
  }

  getFlags(): TypedFlags {
    return this.client.getFlags(this.context);
  }

  /** The node SDK's `getFlagsForBootstrap()` for the bound context. */
  getFlagsForBootstrap(): BootstrappedFlags {
    return this.client.getFlagsForBootstrap(this.context);
  }

  /** Every flag with the stored attributes of the bound user and company merged in (`client.getFlagsRemote`). */
  getFlagsRemote(): Promise<TypedFlags> {
    return this.client.getFlagsRemote(undefined, undefined, this.context);
  }

  getFlagRemote<K extends FlagKey>(flagKey: K): Promise<TypedFlag<K>> {
    return this.client.getFlagRemote(flagKey, undefined, undefined, this.context);
  }

  /** Tracks an event for the bound user (and company, unless `companyId` is given); no user, no event. */
  async track(event: string, options: TrackOptions = {}): Promise<void> {
    const userId = this.context.user?.id;
    if (userId === undefined || this.context.enableTracking === false) return;
    const companyId = options.companyId ?? this.context.company?.id;
    await this.client.track(userId, event, { ...options, ...(companyId !== undefined ? { companyId } : {}) });
  }

  bindClient(given: FlagContext): BoundFlagmountClient {
    const more: FlagContext = typeof given === 'object' && given !== null ? given : {};
    const merged: FlagContext = { ...this.context };
    if (more.user) merged.user = { ...this.context.user, ...more.user };
    if (more.company) merged.company = { ...this.context.company, ...more.company };
    if (more.other) merged.other = { ...this.context.other, ...more.other };
    if (more.enableTracking !== undefined) merged.enableTracking = more.enableTracking;
    return new BoundFlagmountClient(this.client, merged);
  }

  flush(): Promise<void> {
    return this.client.flush();
  }
}
