import type { HostSignIn } from './host/host-authenticate.js';
import type { LogFunction, Logger } from './logger.js';
import type { Storage } from './storage/port.js';
import type { ManagementScope } from './storage/records.js';

export type NotificationDestination = 'issueTrackerComment' | 'chat';

export interface CorsOptions {
  /** Allowed origins for the runtime routes: `'*'` reflects any origin (default), a list, or a predicate. */
  origins?: '*' | string[] | ((origin: string) => boolean);
  /** Send `Access-Control-Allow-Credentials: true` (default true: the browser SDK may send credentials). */
  credentials?: boolean;
  /** Also answer CORS for management routes (default false: the dashboard is same-origin). */
  management?: boolean;
}

export interface BootstrapOptions {
  /** The management key to create; generated when absent. */
  managementKey?: string;
  organizationName?: string;
  appName?: string;
  /** Fixed SDK keys (tests, reproducible demos); generated when absent. */
  sdkKeys?: Partial<Record<'development' | 'production', { publishableKey?: string; secretKey?: string }>>;
}

export interface BootstrapResult {
  created: boolean;
  organizationId: string;
  appId: string;
  /** Present only when this call created the key (it is never readable again). */
  managementKey?: string;
  environments: Array<{ id: string; name: string; publishableKey: string; secretKey: string }>;
}

export interface FlagmountOptions {
  storage: Storage;
  /** An object with level methods (console, pino, bunyan, winston…) or one `(message, fields, level)` function. */
  logger?: Partial<Logger> | LogFunction;
  /**
   * Creates the organisation, an app with Development and Production environments, stages, the All segment and
   * a management key with every scope, when the store is empty. Also on when `FLAGMOUNT_MANAGEMENT_KEY` is set.
   */
  bootstrap?: boolean | BootstrapOptions;
  /** In-process client environment: id or name; default the environment with order 0 of the first app. */
  environment?: string;
  cors?: CorsOptions;
  /** Largest request body read, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Longest a `waitForVersion` request is held (default 5000 ms). */
  waitForVersionTimeoutMs?: number;
  sse?: { maxConnectionsPerEnvironment?: number; heartbeatMs?: number };
  /** Webhook URL per notification destination; `defaults` are used when a targeting update omits the field. */
  notifications?: Partial<Record<NotificationDestination, string>> & { defaults?: NotificationDestination[] };
  /**
   * Event ingestion's group commit. `flushIntervalMs` (default 0): how long a write waits to gather more requests
   * before it starts, when the store has a free slot; requests arriving while writes run are batched anyway, so the
   * wait only adds latency unless requests come in sparse bursts. `maxBatch` (2000) items start a write at once;
   * beyond `maxQueue` (50000) queued items requests get 503.
   */
  ingestion?: { flushIntervalMs?: number; maxBatch?: number; maxQueue?: number };
  /** Days without checks before `noRecentChecks`/`stale` (default 30). */
  staleAfterDays?: number;
  /**
   * What raw events are kept. `recentChecks` (default 10000): check events kept per environment, the newest, as a
   * recent-activity ring overwritten in place. Counts never depend on them: every check is counted into the
   * aggregates (entity flag stats, daily flag stats) when it is committed. `eventsDays` (default: keep forever):
   * track events, prompt events and feedback older than this many days are deleted in the background, in small
   * batches, by one replica at a time; the counts and first/last times served about them are aggregates and stay.
   */
  retention?: { recentChecks?: number; eventsDays?: number };
  /** Which route groups the handler serves (default both). */
  mount?: { management?: boolean; runtime?: boolean };
  /** Serve the dashboard at `/ui` (default false). */
  dashboard?: boolean;
  /**
   * Who may call `POST /flags/opt-in` (the browser SDK's `setOptIn`): `'secret'` (default: backends only),
   * `'publishable'` (browsers too: any visitor can then opt any user id into any non-secret flag), or `'off'`.
   * `optInEnabled` in evaluated flags tells a caller whether it may opt in.
   */
  optIn?: 'secret' | 'publishable' | 'off';
  /** Clock for tests. */
  now?: () => Date;
}

export interface ResolvedOptions {
  maxBodyBytes: number;
  waitForVersionTimeoutMs: number;
  sse: { maxConnectionsPerEnvironment: number; heartbeatMs: number };
  notifications: Partial<Record<NotificationDestination, string>> & { defaults: NotificationDestination[] };
  ingestion: { flushIntervalMs: number; maxBatch: number; maxQueue: number };
  staleAfterDays: number;
  retention: { recentChecks: number; eventsDays: number | undefined };
  mount: { management: boolean; runtime: boolean };
  cors: Required<Pick<CorsOptions, 'credentials' | 'management'>> & { origins: NonNullable<CorsOptions['origins']> };
  dashboard: boolean;
  optIn: 'secret' | 'publishable' | 'off';
  /** The host's sign-in, as a mount sets it (`MountOptions.authenticate`); none on the instance's own handler. */
  host: HostSignIn;
}

export const ALL_SCOPES: ManagementScope[] = ['read', 'write:flags', 'write:flag:targeting', 'write:entities', 'admin'];

/** The longest delay a Node timer takes: beyond it Node warns on stderr and fires after 1 ms instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A numeric option, or its default. A value out of range is the host's mistake, said at start with the option's
 * name, rather than a limit that refuses every body or a timer that fires at once.
 */
function integerOption(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`Flagmount option ${name} must be an integer from ${min} to ${max}, not ${String(value)}`);
  }
  return value;
}

/** A count or a size: an integer of at least 1. */
export const countOption = (name: string, value: number | undefined, fallback: number): number =>
  integerOption(name, value, fallback, 1, Number.MAX_SAFE_INTEGER);

export function resolveOptions(options: FlagmountOptions): ResolvedOptions {
  const delay = (name: string, value: number | undefined, fallback: number) =>
    integerOption(name, value, fallback, 0, MAX_TIMER_MS);
  return {
    maxBodyBytes: countOption('maxBodyBytes', options.maxBodyBytes, 1024 * 1024),
    waitForVersionTimeoutMs: delay('waitForVersionTimeoutMs', options.waitForVersionTimeoutMs, 5000),
    sse: {
      maxConnectionsPerEnvironment: countOption('sse.maxConnectionsPerEnvironment', options.sse?.maxConnectionsPerEnvironment, 1000),
      heartbeatMs: delay('sse.heartbeatMs', options.sse?.heartbeatMs, 25_000),
    },
    notifications: { ...options.notifications, defaults: options.notifications?.defaults ?? [] },
    ingestion: {
      flushIntervalMs: delay('ingestion.flushIntervalMs', options.ingestion?.flushIntervalMs, 0),
      maxBatch: countOption('ingestion.maxBatch', options.ingestion?.maxBatch, 2000),
      maxQueue: countOption('ingestion.maxQueue', options.ingestion?.maxQueue, 50_000),
    },
    staleAfterDays: countOption('staleAfterDays', options.staleAfterDays, 30),
    retention: {
      recentChecks: integerOption('retention.recentChecks', options.retention?.recentChecks, 10_000, 0, 10_000_000),
      eventsDays:
        options.retention?.eventsDays === undefined ? undefined : integerOption('retention.eventsDays', options.retention.eventsDays, 0, 1, 36_500),
    },
    mount: { management: options.mount?.management ?? true, runtime: options.mount?.runtime ?? true },
    cors: {
      origins: options.cors?.origins ?? '*',
      credentials: options.cors?.credentials ?? true,
      management: options.cors?.management ?? false,
    },
    dashboard: options.dashboard ?? false,
    optIn: options.optIn ?? 'secret',
    host: { trustedOrigins: [] },
  };
}
