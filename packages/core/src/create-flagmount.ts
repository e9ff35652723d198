import { bootstrap as runBootstrap } from './bootstrap.js';
import { FlagmountClient } from './client/flagmount-client.js';
import type { ClientAnalyticsStats } from './client/event-buffer.js';
import type { RequestFlags } from './client/request-flags.js';
import { RequestScope } from './client/request-scope.js';
import { loadDashboardAssets } from './dashboard/assets.js';
import { dashboardApiRoutes, dashboardRoutes } from './dashboard/routes.js';
import { createHandler, type CoreHandler } from './http/handler.js';
import { InFlight } from './http/in-flight.js';
import type { RouteDefinition } from './http/route.js';
import { EventPruner } from './ingestion/event-pruner.js';
import { GroupCommitWriter } from './ingestion/group-commit-writer.js';
import { normalizeLogger } from './logger.js';
import { managementRoutes } from './management/routes.js';
import { Notifier } from './management/notifications/notifier.js';
import { Scheduler } from './management/schedules/scheduler.js';
import { resolveOptions, type BootstrapResult, type FlagmountOptions } from './options.js';
import { ofrepRoutes } from './ofrep/routes.js';
import { openApiRoute } from './openapi/route.js';
import { openFeatureManifestRoutes } from './openfeature/routes.js';
import { runtimeRoutes } from './runtime/routes.js';
import { closeRemoteContextCache } from './runtime/context/remote-context.js';
import { StreamHub } from './runtime/sse/stream-hub.js';
import type { Services } from './services.js';
import { SnapshotCache } from './snapshot/snapshot-cache.js';
import type { Storage } from './storage/port.js';

export interface Flagmount {
  /** The framework-neutral HTTP handler the adapters mount. */
  readonly handler: CoreHandler;
  /** In-process client for the default environment. */
  readonly client: FlagmountClient;
  /** In-process client for another environment (id or name). */
  clientFor(environment: string): FlagmountClient;
  /** What bootstrap found or created (keys are present only when this start created them). */
  readonly bootstrap: BootstrapResult | undefined;
  readonly routes: readonly RouteDefinition[];
  readonly services: Services;
  /**
   * Counters of the in-process clients' analytics, summed over every client: checks counted, checks and context
   * updates dropped because the bounded buffer was full, rows waiting for the next flush, failed flushes.
   */
  stats(): FlagmountStats;
  /**
   * The flags of the request under way, from anywhere below its handler: on when a mount's request binding has
   * `current: true` (AsyncLocalStorage); undefined outside a request or when off.
   */
  current(): RequestFlags | undefined;
  /** Where adapters keep the current request's flags (see `current`). */
  readonly requestScope: RequestScope;
  /** Flushes buffered writes, ends streams, stops timers, closes the store. Idempotent. */
  close(): Promise<void>;
}

export interface FlagmountStats {
  client: ClientAnalyticsStats;
  /** Rows `retention.eventsDays` deleted from this instance (0 when off). */
  retention: { eventsPruned: number };
}

/**
 * How long `close()` lets answers under way finish on an open store (a write commits, then reads back what it
 * answers). A request stuck on an unreachable database must not hold the host's shutdown for its query timeout.
 */
const CLOSE_DRAIN_MS = 10_000;

export async function createFlagmount(options: FlagmountOptions): Promise<Flagmount> {
  const logger = normalizeLogger(options.logger);
  const resolved = resolveOptions(options);
  const now = options.now ?? (() => new Date());
  const { storage } = options;

  await storage.migrate();
  const envKey = process.env['FLAGMOUNT_MANAGEMENT_KEY'];
  const bootstrapOptions =
    options.bootstrap === false
      ? undefined
      : options.bootstrap === true || options.bootstrap
        ? { ...(envKey ? { managementKey: envKey } : {}), ...(options.bootstrap === true ? {} : options.bootstrap) }
        : envKey
          ? { managementKey: envKey }
          : undefined;
  const bootstrapResult = bootstrapOptions ? await runBootstrap(storage, bootstrapOptions, logger, now()) : undefined;

  const snapshots = new SnapshotCache(storage, logger);
  await snapshots.start();
  const services: Services = {
    storage,
    logger,
    options: resolved,
    now,
    snapshots,
    ingestion: new GroupCommitWriter(storage, logger, { ...resolved.ingestion, recentChecks: resolved.retention.recentChecks }),
    streams: new StreamHub(snapshots, logger, resolved.sse),
    notifier: new Notifier(resolved.notifications, logger),
    inFlight: new InFlight(),
  };

  // The UI calls the management API on its own mount, so it is served only beside it.
  const dashboard = resolved.dashboard && resolved.mount.management ? await loadDashboardAssets(logger) : undefined;
  const routes: RouteDefinition[] = [
    ...(resolved.mount.management ? [...managementRoutes, ...openFeatureManifestRoutes, ...dashboardApiRoutes] : []),
    ...(resolved.mount.runtime ? [...runtimeRoutes, ...ofrepRoutes] : []),
    ...(dashboard ? dashboardRoutes(dashboard) : []),
    openApiRoute(() => routes),
  ];
  const handler = createHandler(services, routes);
  const clients = new Map<string, FlagmountClient>();
  const clientFor = (environment: string): FlagmountClient => {
    let client = clients.get(environment);
    if (!client) {
      client = new FlagmountClient(services, environment);
      clients.set(environment, client);
    }
    return client;
  };
  const defaultClient = clientFor(options.environment ?? (await defaultEnvironment(storage)));
  // Every instance applies due schedules (exactly one of several replicas wins each); overdue ones at start.
  const scheduler = new Scheduler(services);
  await scheduler.start();
  const pruner =
    resolved.retention.eventsDays === undefined ? undefined : new EventPruner(storage, logger, { eventsDays: resolved.retention.eventsDays }, now);
  pruner?.start();

  let closing: Promise<void> | undefined;
  const requestScope = new RequestScope();
  return {
    requestScope,
    current: () => requestScope.current(),
    handler,
    client: defaultClient,
    clientFor,
    bootstrap: bootstrapResult,
    routes,
    services,
    stats() {
      const client: ClientAnalyticsStats = { checksCounted: 0, checksDropped: 0, contextUpdatesDropped: 0, pendingRows: 0, failedFlushes: 0 };
      for (const c of clients.values()) {
        const s = c.analyticsStats();
        for (const key of Object.keys(client) as Array<keyof ClientAnalyticsStats>) client[key] += s[key];
      }
      return { client, retention: { eventsPruned: pruner?.pruned ?? 0 } };
    },
    close() {
      closing ??= (async () => {
        // Streams end, and requests parked on waitForVersion answer with what there is: neither is work to finish.
        services.streams.close();
        snapshots.close();
        await scheduler.close();
        await pruner?.close();
        await services.inFlight.drained(CLOSE_DRAIN_MS);
        services.ingestion.expedite();
        for (const client of clients.values()) await client.flush().catch(() => {});
        await services.ingestion.close().catch((error: unknown) => logger.error('flagmount: final flush failed', { error }));
        await services.notifier.close();
        closeRemoteContextCache(storage);
        await storage.close();
      })();
      return closing;
    },
  };
}

/** The environment with order 0 of the first app (by creation), or '' when the store has none yet. */
async function defaultEnvironment(storage: Storage): Promise<string> {
  const [app] = await storage.apps.list();
  if (!app) return '';
  const [first] = await storage.environments.listByApp(app.id);
  return first?.id ?? '';
}
