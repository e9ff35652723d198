import type { BootstrappedFlags } from './bootstrap.js';
import type { FlagmountClient } from './flagmount-client.js';
import type { Flag, FlagConfig, FlagContext, FlagKey, TrackOptions } from './types.js';

/**
 * A flag read in one request: the first read of `isEnabled` (or `config`) records the check, later reads answer
 * the same value and record nothing, so a page that asks five times counts once.
 */
class RequestFlag implements Flag {
  #flag: Flag | undefined;
  #enabled: boolean | undefined;
  #config: FlagConfig | undefined;

  constructor(
    readonly key: FlagKey,
    private readonly owner: RequestFlags,
    /** Known when `isEnabled(key)` was asked first: then only `config` or `track` evaluates the flag. */
    enabled: boolean | undefined,
  ) {
    this.#enabled = enabled;
  }

  private get flag(): Flag {
    return (this.#flag ??= this.owner.client.getFlag(this.owner.context, this.key));
  }

  get isEnabled(): boolean {
    return (this.#enabled ??= this.flag.isEnabled);
  }

  get config(): FlagConfig {
    return (this.#config ??= this.flag.config);
  }

  track(): Promise<void> {
    return this.flag.track();
  }
}

/**
 * The flags of one host request (Express `req.flags`, Koa `ctx.state.flags`, Fastify `request.flags`): a client
 * bound to the context the host's `context(hostRequest)` gave, that evaluates each flag once per request.
 */
export class RequestFlags {
  // The first flag asked with `isEnabled` lives in two fields, so the usual request (a flag or two) makes no Map.
  #firstKey: string | undefined;
  #firstEnabled = false;
  #enabled: Map<string, boolean> | undefined;
  #memo: Map<string, RequestFlag> | undefined;
  #all: Record<string, Flag> | undefined;

  constructor(
    /** The in-process client this request evaluates with. */
    readonly client: FlagmountClient,
    /** The request's context, as `context(hostRequest)` made it. */
    readonly context: FlagContext,
  ) {}

  /** Whether the flag is on for this request; the first read records the check. */
  isEnabled(flagKey: FlagKey): boolean {
    if (flagKey === this.#firstKey) return this.#firstEnabled;
    const known = this.#enabled?.get(flagKey) ?? this.#memo?.get(flagKey)?.isEnabled;
    if (known !== undefined) return known;
    const enabled = this.client.isEnabled(flagKey, this.context);
    if (this.#firstKey === undefined) {
      this.#firstKey = flagKey;
      this.#firstEnabled = enabled;
    } else {
      (this.#enabled ??= new Map()).set(flagKey, enabled);
    }
    return enabled;
  }

  /** The flag for this request; `isEnabled` and `config` record their check on the first read of the request only. */
  getFlag(flagKey: FlagKey): Flag {
    const memo = (this.#memo ??= new Map());
    let flag = memo.get(flagKey);
    if (!flag) {
      // Asked with isEnabled already: that check is recorded, this flag's isEnabled answers without another.
      const enabled = flagKey === this.#firstKey ? this.#firstEnabled : this.#enabled?.get(flagKey);
      memo.set(flagKey, (flag = new RequestFlag(flagKey, this, enabled)));
    }
    return flag;
  }

  /** Every flag for this request (evaluated once per request; reading these records no checks, as in the SDK). */
  getFlags(): Record<string, Flag> {
    return (this.#all ??= this.client.getFlags(this.context));
  }

  /** What the browser SDK's `bootstrappedFlags` takes, for this request's context. */
  getFlagsForBootstrap(): BootstrappedFlags {
    return this.client.getFlagsForBootstrap(this.context);
  }

  /** Tracks an event for the request's user (and company); no user, no event. */
  track(event: string, options?: TrackOptions): Promise<void> {
    return this.client.bindClient(this.context).track(event, options);
  }
}
