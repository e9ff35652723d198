import type { EvaluationContext, FlagEvaluation } from '@flagmount/engine';
import { BatchBuilder } from '../runtime/ingest/batch-builder.js';
import { invalidateRemoteContext, withRemoteContext } from '../runtime/context/remote-context.js';
import type { Context } from '../schemas/context.js';
import type { Services } from '../services.js';
import type { EnvironmentState } from '../snapshot/environment-state.js';
import { bootstrapFlags, type BootstrappedFlags } from './bootstrap.js';
import { BoundFlagmountClient } from './bound-client.js';
import { ClientFlag, NO_CONFIG, type FlagOwner } from './client-flag.js';
import { EventBuffer, type ClientAnalyticsStats } from './event-buffer.js';
import type {
  EntityId,
  Flag,
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

const EMPTY_CONTEXT: FlagContext = Object.freeze({});

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
  return typeof context === 'object' && context !== null && !Array.isArray(context) ? (context as FlagContext) : EMPTY_CONTEXT;
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
export class FlagmountClient implements FlagOwner {
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

  /**
   * Whether the flag is on for the context; records a check. Unknown flags are off (and warned about once). The
   * host's hottest call: no copy of the context, no object beyond the engine's answer, nothing serialised.
   */
  isEnabled(flagKey: FlagKey, context?: FlagContext): boolean {
    const given = contextOf(context);
    const overrides = this.overrides;
    if (overrides !== undefined) {
      const override = overrides[flagKey];
      if (override !== undefined && override !== null) return typeof override === 'boolean' ? override : override.isEnabled;
    }
    const state = this.state();
    const evaluation = state?.compiled.evaluate(flagKey, evaluationContext(given));
    if (this.writes && given.enableTracking !== false && state !== undefined) {
      this.record(state.environment.id, given, evaluation, false);
    }
    if (evaluation === undefined) return this.unknown(flagKey);
    return evaluation.isEnabled;
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

  /**
   * What `@reflag/node-sdk`'s `getFlagsForBootstrap(context)` returns against the mount, for the browser SDK's
   * `bootstrappedFlags`: plain data to serialise into a page. Syncs the user and company as the SDK does.
   */
  getFlagsForBootstrap(given: FlagContext): BootstrappedFlags {
    const context = contextOf(given);
    return bootstrapFlags(this.prepare(context), context, this.overrides);
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

  /** What this client's analytics counted and dropped so far (summed over every client by `flags.stats()`). */
  analyticsStats(): ClientAnalyticsStats {
    const buffer = this.shared.buffer;
    return { ...buffer.stats, pendingRows: buffer.pendingRows };
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
    if (state && this.tracking(context)) this.record(state.environment.id, context, undefined, false);
    return state;
  }

  /** `context` is what the caller sent (synced, tracked, reported in checks); `evaluated` what the rules see. */
  private flagFor(context: FlagContext, evaluated: FlagContext, flagKey: string): Flag {
    const state = this.state();
    // The sync waits for the flag's read, which then syncs and counts in one pass (see EventBuffer.syncLater).
    if (state && this.tracking(context)) this.shared.buffer.syncLater(state.environment.id, context);
    const override = this.overrides?.[flagKey];
    // A null override (`{ key: null }`, a test clearing one) is no override: the flag evaluates as usual.
    if (override !== undefined && override !== null) return this.overrideFlag(context, flagKey, override);
    const evaluation = state?.compiled.evaluate(flagKey, evaluationContext(evaluated));
    if (evaluation === undefined) return new ClientFlag(this, context, flagKey, this.unknown(flagKey), undefined, false, NO_CONFIG);
    return new ClientFlag(this, context, flagKey, evaluation.isEnabled, evaluation, this.tracking(context));
  }

  private flagsFor(context: FlagContext, evaluated: FlagContext): Record<string, Flag> {
    const state = this.prepare(context);
    const out: Record<string, Flag> = {};
    const put = (key: string, flag: Flag) =>
      Object.defineProperty(out, key, { value: flag, enumerable: true, writable: true, configurable: true });
    if (state) {
      for (const evaluation of Object.values(state.compiled.evaluateAll(evaluationContext(evaluated)))) {
        put(evaluation.key, new ClientFlag(this, context, evaluation.key, evaluation.isEnabled, evaluation, false));
      }
    }
    for (const [key, override] of Object.entries(this.overrides ?? {})) {
      if (override !== null && override !== undefined) put(key, this.overrideFlag(context, key, override));
    }
    return out;
  }

  private overrideFlag(context: FlagContext, key: string, override: FlagOverride): Flag {
    if (typeof override === 'boolean') return new ClientFlag(this, context, key, override, undefined, false, NO_CONFIG);
    const config = override.config ? { key: override.config.key, payload: override.config.payload } : NO_CONFIG;
    return new ClientFlag(this, context, key, override.isEnabled, undefined, false, config);
  }

  /** @internal A `Flag`'s `isEnabled` or `config` was read. */
  recordCheck(context: FlagContext, evaluation: FlagEvaluation, config: boolean): void {
    const envId = this.shared.envId;
    if (envId !== undefined) this.record(envId, context, evaluation, config);
  }

  /** @internal `flag.track()`. */
  async trackFlag(context: FlagContext, flagKey: string): Promise<void> {
    const userId = context.user?.id;
    if (userId === undefined) {
      this.shared.services.logger.warn('flagmount: no user in the context, cannot track', { flagKey });
      return;
    }
    if (!this.tracking(context)) return;
    const companyId = context.company?.id;
    await this.track(userId, flagKey, companyId === undefined ? {} : { companyId });
  }

  /**
   * Context sync, and the check of `evaluation` (none for an unknown flag). Analytics never throw into host code:
   * a context whose attributes cannot be read is simply not counted.
   */
  private record(envId: string, context: FlagContext, evaluation: FlagEvaluation | undefined, config: boolean): void {
    try {
      if (evaluation === undefined) {
        this.shared.buffer.record(envId, context, null, false, 0, undefined, undefined);
      } else if (!config) {
        this.shared.buffer.record(envId, context, evaluation.key, false, evaluation.targetingVersion, evaluation.isEnabled, evaluation);
      } else {
        const c = evaluation.config;
        this.shared.buffer.record(envId, context, evaluation.key, true, c?.version ?? 0, c?.key ?? undefined, evaluation);
      }
    } catch (error) {
      this.shared.services.logger.warn('flagmount: a check could not be recorded', { error });
    }
  }

  /** An unknown flag is off; warned about once per key. */
  private unknown(flagKey: string): false {
    if (!this.shared.warned.has(flagKey)) {
      this.shared.warned.add(flagKey);
      this.shared.services.logger.warn('flagmount: unknown flag, evaluating to false', {
        flagKey,
        environment: this.shared.environment,
      });
    }
    return false;
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

}

/**
 * What the rules see: the context itself, never a copy (the hot path allocates nothing for it). `enableTracking`
 * stays in it; a rule would have to name a context field `enableTracking` to notice.
 */
function evaluationContext(context: FlagContext): EvaluationContext {
  return context as EvaluationContext;
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
