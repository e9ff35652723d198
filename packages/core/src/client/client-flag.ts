import type { FlagEvaluation } from '@flagmount/engine';
import type { Flag, FlagConfig, FlagContext } from './types.js';

/** What a `Flag` calls back into when it is read: the client that made it. */
export interface FlagOwner {
  recordCheck(context: FlagContext, evaluation: FlagEvaluation, config: boolean): void;
  trackFlag(context: FlagContext, flagKey: string): Promise<void>;
}

export const NO_CONFIG: FlagConfig = Object.freeze({ key: undefined, payload: undefined });

/** The config as the node SDK exposes it: `key` undefined when no variant matched. */
export function configOf(evaluation: FlagEvaluation): FlagConfig {
  const config = evaluation.config;
  return config && config.key !== null ? { key: config.key, payload: config.payload } : NO_CONFIG;
}

/**
 * A flag for one context, shaped like the node SDK's: reading `isEnabled` or `config` records a check (when
 * `evaluation` is set and the owner tracks). One small object per `getFlag`, its methods on the prototype.
 */
export class ClientFlag implements Flag {
  private cachedConfig: FlagConfig | undefined;

  constructor(
    private readonly owner: FlagOwner,
    private readonly context: FlagContext,
    readonly key: string,
    private readonly enabled: boolean,
    /** Undefined for overrides and unknown flags: nothing to record. */
    private readonly evaluation: FlagEvaluation | undefined,
    private readonly records: boolean,
    private readonly fixedConfig?: FlagConfig,
  ) {}

  get isEnabled(): boolean {
    if (this.records && this.evaluation !== undefined) this.owner.recordCheck(this.context, this.evaluation, false);
    return this.enabled;
  }

  get config(): FlagConfig {
    if (this.records && this.evaluation !== undefined) this.owner.recordCheck(this.context, this.evaluation, true);
    if (this.fixedConfig !== undefined) return this.fixedConfig;
    return (this.cachedConfig ??= this.evaluation === undefined ? NO_CONFIG : configOf(this.evaluation));
  }

  track(): Promise<void> {
    return this.owner.trackFlag(this.context, this.key);
  }
}
