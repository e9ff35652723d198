import type { EvaluationContext, FlagEvaluation } from '@flagmount/engine';
import { BatchBuilder } from '../runtime/ingest/batch-builder.js';
import { invalidateRemoteContext, withRemoteContext } from '../runtime/context/remote-context.js';
import type { Context } from '../schemas/context.js';
import type { Services } from '../services.js';
import type { EnvironmentState } from '../snapshot/environment-state.js';
import { BoundFlagmountClient } from './bound-client.js';
import { EventBuffer } from './event-buffer.js';
import type {
  EntityId,
  Flag,
  FlagConfig,
  FlagContext,
  FlagKey,
  FlagOverride,
  TrackOptions,
  TypedFlag,
  TypedFlags,
  UpdateCompanyOptions,
  UpdateUserOptions,
} from './types.js';

/** What a client and the clients derived from it (bound, with overrides) share. */
interface Shared {
  readonly services: Services;
  readonly environment: string;
  readonly buffer: EventBuffer;
  /** Unknown flag keys already warned about: one warning per key, not one per call. */
  readonly warned: Set<string>;
  envId?: string;
}

interface Resolved {
  key: string;
  isEnabled: boolean;
  config: FlagConfig;
  evaluation?: FlagEvaluation;
}

const NO_CONFIG: FlagConfig = Object.freeze({ key: undefined, payload: undefined });

/**
 * Attributes as the store will hold them: a JSON copy taken now. A value JSON cannot hold (a BigInt, a cycle) is the
 * caller's error, thrown here: inside the group-commit batch it failed every other write sharing that batch.
 */
function jsonAttributes(attributes: unknown): Record<string, unknown> {
  if (attributes === undefined || attributes === null) return {};
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(attributes)) as unknown;
  } catch {
    throw new TypeError('attributes must hold JSON values only (no BigInt, no cycles)');
  }
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) throw new TypeError('attributes must be an object');
  return copy as Record<string, unknown>;
}

/** The node SDK's remote-evaluation arguments as one context: the ids win over `additionalContext`'s. */
function remoteArguments(userId: EntityId | undefined, companyId: EntityId | undefined, additional: unknown): FlagContext {
  const extra = contextOf(additional);
  const context: FlagContext = { ...extra };
  if (userId !== undefined && userId !== null) context.user = { ...extra.user, id: userId };
  if (companyId !== undefined && companyId !== null) context.company = { ...extra.company, id: companyId };
  return context;
}

/** A missing or malformed context (null, a string…) is the empty context: bad input never throws into host code. */
function contextOf(context: unknown): FlagContext {
  return typeof context === 'object' && context !== null && !Array.isArray(context) ? (context as FlagContext) : {};
}

function checkId(id: unknown, what: string): string {
  if (typeof id === 'string' && id.length) return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  throw new TypeError(`${what} must be a non-empty string or a number`);
}

/**
 * The in-process client, shaped like Reflag's node SDK (`getFlag`, `getFlags`, `bindClient`, `track`,
 * `updateUser`, `updateCompany`) plus `isEnabled(flagKey, context)`. Evaluation is synchronous, from the same
 * compiled snapshot the HTTP routes serve, and never touches the store. Reading `isEnabled`/`config` of a flag
 * records a check event (buffered, deduplicated for a minute like the SDK), as do `isEnabled(...)` calls.
 */
export class FlagmountClient {
  private readonly shared: Shared;
  private readonly overrides: Readonly<Record<string, FlagOverride>> | undefined;
  /** False for `withOverrides` clients: they never write to the store. */
  private readonly writes: boolean;

  constructor(services: Services, environment: string, internal?: { shared: Shared; overrides: Record<string, FlagOverride> }) {
    this.shared = internal?.shared ?? { services, environment, buffer: new EventBuffer(services), warned: new Set() };
    this.overrides = internal?.overrides;
    this.writes = internal === undefined;
  }

  /** The environment this client evaluates in, as it was given (an id or a name). */
  get environment(): string {
    return this.shared.environment;
  }

  /**
   * Whether the environment serves this flag now (archived flags are not served), or an override names it: what
   * tells an unknown flag from one that is off, which `isEnabled` answers alike. Records nothing.
   */
  hasFlag(flagKey: string): boolean {
    const override = this.overrides?.[flagKey];
    if (override !== undefined && override !== null) return true;
    return this.state()?.flags.has(flagKey) ?? false;
  }

  /** Whether the flag is on for the context; records a check. Unknown flags are off (and warned about once). */
  isEnabled(flagKey: FlagKey, context: FlagContext = {}): boolean {
    return this.getFlag(context, flagKey).isEnabled;
  }

  getFlag<K extends FlagKey>(given: FlagContext, flagKey: K): TypedFlag<K> {
    const context = contextOf(given);
    return this.flagFor(context, context, flagKey) as TypedFlag<K>;
  }

  /** Every flag for the context. As in the node SDK, reading these records no check events. */
  getFlags(given: FlagContext): TypedFlags {
    const context = contextOf(given);
    return this.flagsFor(context, context) as TypedFlags;
  }

  /**
   * As the node SDK's `getFlagsRemote(userId, companyId, additionalContext)`: every flag evaluated with the
   * attributes stored for the user and company (`/user`, `/company`, `updateUser`…) merged under the ones given,
   * the answer `/features/evaluated` gives. The synchronous calls evaluate the context given, as the SDK's local
   * evaluation does. If the store cannot be read, the context given alone is evaluated (and a warning logged).
   */
  async getFlagsRemote(userId?: EntityId, companyId?: EntityId, additionalContext?: FlagContext): Promise<TypedFlags> {
    const context = remoteArguments(userId, companyId, additionalContext);
    return this.flagsFor(context, await this.withStored(context)) as TypedFlags;
  }

  /** One flag as `getFlagsRemote` evaluates it (the node SDK's `getFlagRemote`); records a check when read. */
  async getFlagRemote<K extends FlagKey>(flagKey: K, userId?: EntityId, companyId?: EntityId, additionalContext?: FlagContext): Promise<TypedFlag<K>> {
    const context = remoteArguments(userId, companyId, additionalContext);
    return this.flagFor(context, await this.withStored(context), flagKey) as TypedFlag<K>;
  }

  /** A client bound to one context: `getFlag(key)`, `getFlags()`, `isEnabled(key)`, `track(event)`. */
  bindClient(context: FlagContext): BoundFlagmountClient {
    return new BoundFlagmountClient(this, contextOf(context));
  }

  /**
   * A client whose listed flags have fixed results, for host tests. It evaluates other flags normally but never
   * writes: no check events, no tracks, no user or company updates.
   */
  withOverrides(overrides: Record<string, FlagOverride>): FlagmountClient {
    return new FlagmountClient(this.shared.services, this.shared.environment, {
      shared: this.shared,
      overrides: { ...this.overrides, ...overrides },
    });
  }

  /** Tracks an event; resolves once stored. An event named like a flag counts as a track of that flag. */
  async track(userId: EntityId, event: string, options: TrackOptions = {}): Promise<void> {
    const user = checkId(userId, 'userId');
    if (typeof event !== 'string' || !event) throw new TypeError('event must be a non-empty string');
    const companyId = options.companyId === undefined ? undefined : checkId(options.companyId, 'companyId');
    const attributes = jsonAttributes(options.attributes);
    await this.submit((builder, at) =>
      builder.event({ userId: user, event, ...(companyId !== undefined ? { companyId } : {}), attributes }, at),
    );
  }

  /** Creates or updates a user (attributes merge key by key; arrays replace whole); resolves once stored. */
  async updateUser(userId: EntityId, options: UpdateUserOptions = {}): Promise<void> {
    const id = checkId(userId, 'userId');
    const attributes = jsonAttributes(options.attributes);
    await this.submit((builder, at) => builder.user({ userId: id, attributes }, at));
  }

  /** Creates or updates a company; `userId` associates that user with it. Resolves once stored. */
  async updateCompany(companyId: EntityId, options: UpdateCompanyOptions = {}): Promise<void> {
    const id = checkId(companyId, 'companyId');
    const userId = options.userId === undefined ? undefined : checkId(options.userId, 'userId');
    const attributes = jsonAttributes(options.attributes);
    await this.submit((builder, at) =>
      builder.company({ companyId: id, ...(userId !== undefined ? { userId } : {}), attributes }, at),
    );
  }

  /** Stores the buffered check events and context updates; resolves when they are committed. */
  flush(): Promise<void> {
    return this.shared.buffer.flush();
  }

  private async submit(add: (builder: BatchBuilder, at: string) => void): Promise<void> {
    if (!this.writes) return;
    const state = this.state();
    if (!state) {
      this.shared.services.logger.warn('flagmount: in-process client has no environment, nothing stored', {
        environment: this.shared.environment,
      });
      return;
    }
    const builder = new BatchBuilder(state.environment.id, state.flagKeys);
    add(builder, this.shared.services.now().toISOString());
    await this.shared.services.ingestion.submit(builder.build());
    invalidateRemoteContext(this.shared.services, builder.touchedEntities());
  }

  /**
   * The environment's current snapshot: by id, else by name, in any case (names are unique regardless of case; the
   * earliest-created environment of that name across apps). The default client of an instance that started on an
   * empty store (`''`) takes the default environment once there is one: another replica may bootstrap the store.
   */
  private state(): EnvironmentState | undefined {
    const { services, environment } = this.shared;
    if (this.shared.envId) return services.snapshots.get(this.shared.envId);
    let found = services.snapshots.get(environment);
    if (!found) {
      const all = services.snapshots.all().sort(byCreation);
      const name = environment.toLowerCase();
      found = environment === '' ? defaultEnvironmentOf(all) : all.find((s) => s.environment.name.toLowerCase() === name);
    }
    if (found) this.shared.envId = found.environment.id;
    return found;
  }

  /** Resolves the environment and, as the node SDK does, syncs the context's user and company. */
  private prepare(context: FlagContext): EnvironmentState | undefined {
    const state = this.state();
    if (state && this.tracking(context)) this.shared.buffer.syncContext(state.environment.id, context);
    return state;
  }

  /** `context` is what the caller sent (synced, tracked, reported in checks); `evaluated` what the rules see. */
  private flagFor(context: FlagContext, evaluated: FlagContext, flagKey: string): Flag {
    const state = this.prepare(context);
    return this.wrap(context, this.resolve(state, evaluated, flagKey), true);
  }

  private flagsFor(context: FlagContext, evaluated: FlagContext): Record<string, Flag> {
    const state = this.prepare(context);
    const out: Record<string, Flag> = {};
    const put = (key: string, flag: Flag) =>
      Object.defineProperty(out, key, { value: flag, enumerable: true, writable: true, configurable: true });
    if (state) {
      for (const evaluation of Object.values(state.compiled.evaluateAll(evaluationContext(evaluated)))) {
        put(evaluation.key, this.wrap(context, fromEvaluation(evaluation), false));
      }
    }
    for (const [key, override] of Object.entries(this.overrides ?? {})) {
      if (override !== null && override !== undefined) put(key, this.wrap(context, fromOverride(key, override), false));
    }
    return out;
  }

  /** The context with the stored attributes of its user and company merged under its own. */
  private async withStored(context: FlagContext): Promise<FlagContext> {
    const state = this.state();
    if (!state) return context;
    const merged = await withRemoteContext(this.shared.services, state.environment.id, evaluationContext(context) as Context);
    return merged.context as FlagContext;
  }

  private tracking(context: FlagContext): boolean {
    return this.writes && context.enableTracking !== false;
  }

  private resolve(state: EnvironmentState | undefined, context: FlagContext, flagKey: string): Resolved {
    const override = this.overrides?.[flagKey];
    // A null override (`{ key: null }`, a test clearing one) is no override: the flag evaluates as usual.
    if (override !== undefined && override !== null) return fromOverride(flagKey, override);
    const evaluation = state?.compiled.evaluate(flagKey, evaluationContext(context));
    if (evaluation) return fromEvaluation(evaluation);
    if (!this.shared.warned.has(flagKey)) {
      this.shared.warned.add(flagKey);
      this.shared.services.logger.warn('flagmount: unknown flag, evaluating to false', {
        flagKey,
        environment: this.shared.environment,
      });
    }
    return { key: flagKey, isEnabled: false, config: NO_CONFIG };
  }

  private wrap(context: FlagContext, resolved: Resolved, checks: boolean): Flag {
    const record = checks && resolved.evaluation !== undefined && this.tracking(context);
    const envId = this.shared.envId;
    const buffer = this.shared.buffer;
    const evalContext = evaluationContext(context) as Record<string, unknown>;
    const evaluation = resolved.evaluation;
    return {
      key: resolved.key,
      get isEnabled() {
        if (record && envId && evaluation) {
          buffer.check(envId, {
            action: 'check',
            key: resolved.key,
            targetingVersion: evaluation.targetingVersion,
            evalContext,
            evalResult: resolved.isEnabled,
            // Copies: the engine hands out shared, frozen arrays, and the event outlives this call.
            evalRuleResults: [...evaluation.ruleEvaluationResults],
            evalMissingFields: [...evaluation.missingContextFields],
          });
        }
        return resolved.isEnabled;
      },
      get config() {
        if (record && envId && evaluation) {
          buffer.check(envId, {
            action: 'check-config',
            key: resolved.key,
            ...(evaluation.config ? { targetingVersion: evaluation.config.version } : {}),
            evalContext,
            evalResult: { key: resolved.config.key, payload: resolved.config.payload },
            evalRuleResults: [...(evaluation.config?.ruleEvaluationResults ?? [])],
            evalMissingFields: [...(evaluation.config?.missingContextFields ?? [])],
          });
        }
        return resolved.config;
      },
      track: async () => {
        const userId = context.user?.id;
        if (userId === undefined) {
          this.shared.services.logger.warn('flagmount: no user in the context, cannot track', { flagKey: resolved.key });
          return;
        }
        if (!this.tracking(context)) return;
        const companyId = context.company?.id;
        await this.track(userId, resolved.key, companyId === undefined ? {} : { companyId });
      },
    };
  }
}

function evaluationContext(context: FlagContext): EvaluationContext {
  const { enableTracking: _enableTracking, ...rest } = context;
  return rest;
}

function fromEvaluation(evaluation: FlagEvaluation): Resolved {
  const config = evaluation.config;
  return {
    key: evaluation.key,
    isEnabled: evaluation.isEnabled,
    config: config && config.key !== null ? { key: config.key, payload: config.payload } : NO_CONFIG,
    evaluation,
  };
}

function fromOverride(key: string, override: FlagOverride): Resolved {
  if (typeof override === 'boolean') return { key, isEnabled: override, config: NO_CONFIG };
  const config = override.config ? { key: override.config.key, payload: override.config.payload } : NO_CONFIG;
  return { key, isEnabled: override.isEnabled, config };
}

const byCreation = (a: EnvironmentState, b: EnvironmentState): number =>
  a.environment.createdAt.localeCompare(b.environment.createdAt) || a.environment.id.localeCompare(b.environment.id);

/**
 * The default environment among `states` (sorted by creation): the first order of the first app, as at start. The
 * first app is that of the earliest environment, since an app's environments are created with it.
 */
function defaultEnvironmentOf(states: EnvironmentState[]): EnvironmentState | undefined {
  const appId = states[0]?.environment.appId;
  return states.filter((s) => s.environment.appId === appId).sort((a, b) => a.environment.order - b.environment.order)[0];
}
