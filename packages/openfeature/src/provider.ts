import { InvalidContextError, toFlagmountContext, type Flagmount, type FlagmountClient } from '@flagmount/core';
import {
  ErrorCode,
  OpenFeatureEventEmitter,
  ProviderEvents,
  StandardResolutionReasons,
  type EvaluationContext,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
  type TrackingEventDetails,
} from '@openfeature/server-sdk';
import { SnapshotWatch } from './snapshot-watch.js';

export interface FlagmountProviderOptions {
  /**
   * With an instance: the environment (id or name) to evaluate in; default the instance's own client environment
   * (order 0 of the first app).
   */
  environment?: string;
}

type FlagContext = Parameters<FlagmountClient['getFlag']>[0];
type Flag = ReturnType<FlagmountClient['getFlag']>;

const isInstance = (source: Flagmount | FlagmountClient): source is Flagmount =>
  typeof (source as Flagmount).handler === 'function' && 'services' in source;

/**
 * An OpenFeature server provider over Flagmount's in-process client: evaluation is synchronous and local (the
 * compiled snapshot), and every evaluation records a check as `client.getFlag` does.
 *
 * - boolean flags: `isEnabled`; reason TARGETING_MATCH when on, DEFAULT when off;
 * - string / number / object flags: the payload of the matched remote-config variant (variant = its key);
 *   no matched variant gives the caller's default with reason DEFAULT; a payload of another type is TYPE_MISMATCH;
 * - an unknown (or archived) flag gives the default with reason ERROR and FLAG_NOT_FOUND;
 * - the context maps as for OFREP: `targetingKey` → `user.id`, `companyId` → `company.id`, `company.*` …
 *
 * Given the instance, it emits ConfigurationChanged (with `flagsChanged`) whenever the environment's flag state
 * changes. Given only a client, there is no change feed to listen to: evaluation works, events are not emitted.
 */
export class FlagmountProvider implements Provider {
  readonly metadata = { name: 'Flagmount' } as const;
  readonly runsOn = 'server' as const;
  readonly events = new OpenFeatureEventEmitter();
  private readonly client: FlagmountClient;
  private readonly watch: SnapshotWatch | undefined;

  constructor(source: Flagmount | FlagmountClient, options: FlagmountProviderOptions = {}) {
    if (isInstance(source)) {
      this.client = options.environment ? source.clientFor(options.environment) : source.client;
      // The client's own environment: `createFlagmount({ environment })` may have chosen it for `instance.client`.
      this.watch = new SnapshotWatch(source, this.client.environment || undefined, (flagsChanged) => {
        this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged });
      });
    } else {
      this.client = source;
    }
  }

  async initialize(): Promise<void> {
    await this.watch?.start();
  }

  /** Stores the buffered check events; the instance itself belongs to the host, which closes it. */
  async onClose(): Promise<void> {
    this.watch?.stop();
    await this.client.flush();
  }

  async resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext): Promise<ResolutionDetails<boolean>> {
    return this.resolve(flagKey, defaultValue, context, (flag) => {
      const isEnabled = flag.isEnabled;
      return {
        value: isEnabled,
        variant: isEnabled ? 'on' : 'off',
        reason: isEnabled ? StandardResolutionReasons.TARGETING_MATCH : StandardResolutionReasons.DEFAULT,
        flagMetadata: { isEnabled },
      };
    });
  }

  async resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext): Promise<ResolutionDetails<string>> {
    return this.resolve(flagKey, defaultValue, context, (flag) => fromPayload(flag, defaultValue, (v): v is string => typeof v === 'string'));
  }

  async resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext): Promise<ResolutionDetails<number>> {
    return this.resolve(flagKey, defaultValue, context, (flag) => fromPayload(flag, defaultValue, (v): v is number => typeof v === 'number'));
  }

  async resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T, context: EvaluationContext): Promise<ResolutionDetails<T>> {
    return this.resolve(flagKey, defaultValue, context, (flag) =>
      fromPayload(flag, defaultValue, (v): v is T => typeof v === 'object' && v !== null),
    );
  }

  /** OpenFeature's `track`: an event for the context's user (and company), as `client.track` stores it. */
  track(trackingEventName: string, context: EvaluationContext, details: TrackingEventDetails): void {
    let mapped: FlagContext;
    try {
      mapped = toFlagmountContext(context);
    } catch {
      return; // Tracking must never throw into the caller; a context we cannot read has no user to track.
    }
    const userId = mapped.user?.id;
    if (userId === undefined) return;
    const companyId = mapped.company?.id;
    void this.client
      .track(userId, trackingEventName, {
        ...(companyId !== undefined ? { companyId } : {}),
        attributes: { ...details },
      })
      .catch(() => undefined);
  }

  private resolve<T>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
    read: (flag: Flag) => ResolutionDetails<T>,
  ): ResolutionDetails<T> {
    let mapped: FlagContext;
    try {
      mapped = toFlagmountContext(context);
    } catch (error) {
      if (!(error instanceof InvalidContextError)) throw error;
      return failed(defaultValue, ErrorCode.INVALID_CONTEXT, error.message);
    }
    if (!this.client.hasFlag(flagKey)) return failed(defaultValue, ErrorCode.FLAG_NOT_FOUND, `Flag "${flagKey}" was not found`);
    return read(this.client.getFlag(mapped, flagKey));
  }
}

function failed<T>(value: T, errorCode: ErrorCode, errorMessage: string): ResolutionDetails<T> {
  return { value, reason: StandardResolutionReasons.ERROR, errorCode, errorMessage };
}

function fromPayload<T>(flag: Flag, defaultValue: T, accepts: (value: unknown) => value is T): ResolutionDetails<T> {
  const config = flag.config;
  if (config.key === undefined || config.payload === undefined || config.payload === null) {
    return { value: defaultValue, reason: StandardResolutionReasons.DEFAULT };
  }
  if (!accepts(config.payload)) {
    return failed(defaultValue, ErrorCode.TYPE_MISMATCH, `The payload of variant "${config.key}" is a ${typeof config.payload}`);
  }
  return {
    value: config.payload,
    variant: config.key,
    reason: StandardResolutionReasons.TARGETING_MATCH,
    // Not isEnabled: reading it would record a second check (the config read already recorded one).
    flagMetadata: { configKey: config.key },
  };
}
