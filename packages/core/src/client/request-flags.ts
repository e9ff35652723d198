import type { BootstrappedFlags } from './bootstrap.js';
import type { FlagmountClient } from './flagmount-client.js';
import type { Flag, FlagConfig, FlagContext, TrackOptions } from './types.js';

/**
 * A flag read in one request: the first read of `isEnabled` (or `config`) records the check, later reads answer
 * the same value and record nothing, so a page that asks five times counts once.
 */
class RequestFlag implements Flag {
  #enabled: boolean | undefined;
  #config: FlagConfig | undefined;

  constructor(private readonly flag: Flag) {}

  get key(): string {
    return this.flag.key;
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
  #memo: Map<string, RequestFlag> | undefined;
  #all: Record<string, Flag> | undefined;

  constructor(
    /** The in-process client this request evaluates with. */
    readonly client: FlagmountClient,
    /** The request's context, as `context(hostRequest)` made it. */
    readonly context: FlagContext,
  ) {}

  /** Whether the flag is on for this request; the first read records the check. */
  isEnabled(flagKey: string): boolean {
    return this.getFlag(flagKey).isEnabled;
  }

  getFlag(flagKey: string): Flag {
    const memo = (this.#memo ??= new Map());
    let flag = memo.get(flagKey);
    if (!flag) memo.set(flagKey, (flag = new RequestFlag(this.client.getFlag(this.context, flagKey))));
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
