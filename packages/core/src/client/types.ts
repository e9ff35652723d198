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
export interface FlagConfig {
  key: string | undefined;
  payload: unknown;
}

/** A flag for one context, shaped like the node SDK's: reading `isEnabled` or `config` records a check. */
export interface Flag {
  readonly key: string;
  readonly isEnabled: boolean;
  readonly config: FlagConfig;
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
