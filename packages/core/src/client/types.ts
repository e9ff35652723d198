/** Ids as Reflag's node SDK accepts them: non-empty strings or numbers (stored as strings). */
export type EntityId = string | number;

/** The evaluation context of the runtime spec, plus the node SDK's `enableTracking` switch. */
export interface FlagContext {
  user?: { id?: EntityId; [attribute: string]: unknown };
  company?: { id?: EntityId; [attribute: string]: unknown };
  other?: Record<string, unknown>;
  /** false: evaluate only; send no check events and no user/company updates (default true, as in the node SDK). */
  enableTracking?: boolean;
}

/** The remote config of a flag as Reflag's node SDK exposes it: `key` is undefined when no variant matched. */
export interface FlagConfig<TPayload = unknown> {
  key: string | undefined;
  payload: TPayload | undefined;
}

/** A flag for one context, shaped like the node SDK's: reading `isEnabled` or `config` records a check. */
export interface Flag<TPayload = unknown> {
  readonly key: string;
  readonly isEnabled: boolean;
  readonly config: FlagConfig<TPayload>;
  /** Tracks an event named like the flag for the context's user (and company). */
  track(): Promise<void>;
}

/** `true`/`false`, or a full result with a config, as in the node SDK's `flagOverrides`. */
export type FlagOverride = boolean | { isEnabled: boolean; config?: { key: string; payload?: unknown } };

export interface TrackOptions {
  companyId?: EntityId;
  attributes?: Record<string, unknown>;
}

export interface UpdateUserOptions {
  attributes?: Record<string, unknown>;
}

export interface UpdateCompanyOptions {
  attributes?: Record<string, unknown>;
  /** Associates this user with the company. */
  userId?: EntityId;
}

/**
 * The registry of flag keys, empty until the host augments it (`flagmount types` writes the augmentation):
 *
 *     declare module '@flagmount/core' { interface Flags { 'new-checkout': boolean; banner: { config: { payload: { text: string } } } } }
 *
 * Empty, every key is a `string`; augmented, only its keys compile, so removing a flag breaks the build where it is
 * still used. The member shapes are those of `@reflag/node-sdk`'s `Flags`, so one generated body serves both.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Flags {}

/** A flag key: `keyof Flags` once the registry is augmented, any string until then. */
export type FlagKey = keyof Flags extends never ? string : Extract<keyof Flags, string>;

/** The config payload type the registry declares for a key (`unknown` for a key without config, or untyped). */
export type FlagPayload<K> = K extends keyof Flags ? (Flags[K] extends { config: { payload: infer P } } ? P : unknown) : unknown;

/** The flag a key evaluates to, its config payload typed from the registry. */
export type TypedFlag<K> = Flag<FlagPayload<K>>;

/** Every flag of a context: one member per registered key, or a record of strings when the registry is empty. */
export type TypedFlags = keyof Flags extends never ? Record<string, Flag> : { [K in FlagKey]: TypedFlag<K> };
