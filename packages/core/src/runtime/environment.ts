import { HttpError, invalidRequest } from '../http/http-error.js';
import type { CoreRequest } from '../http/types.js';
import type { Principal } from '../http/route.js';
import type { Services } from '../services.js';
import type { EnvironmentState } from '../snapshot/environment-state.js';
import type { EnvironmentRecord } from '../storage/records.js';

/** The environment an SDK key belongs to; runtime routes all require an SDK key, so anything else is a bug. */
export function sdkEnvironment(principal: Principal): { environment: EnvironmentRecord; keyKind: 'publishable' | 'secret' } {
  if (principal.kind !== 'sdk') throw new HttpError(403, 'unauthorized', 'An SDK key is required');
  return { environment: principal.environment, keyKind: principal.keyKind };
}

/**
 * The compiled state of the key's environment. It exists whenever the key resolved (keys are indexed from the
 * same snapshots); if the environment vanished in between, the key is no longer valid.
 */
export function currentState(services: Services, envId: string): EnvironmentState {
  const state = services.snapshots.get(envId);
  if (!state) throw new HttpError(403, 'unauthorized', 'Invalid SDK key');
  return state;
}

/**
 * Holds the request until the snapshot reaches `version` (bounded by options), then answers with what it has.
 * The request's abort signal is read only when it waits: adapters make it on first use.
 */
export async function waitForVersion(
  services: Services,
  envId: string,
  version: number | undefined,
  request: { readonly signal?: AbortSignal | undefined },
): Promise<EnvironmentState> {
  if (version !== undefined) {
    await services.snapshots.waitForVersion(envId, version, services.options.waitForVersionTimeoutMs, request.signal);
  }
  return currentState(services, envId);
}

/**
 * ISO timestamp of an item: the body's `timestamp` when given, else when the request arrived (`receivedAt`, read
 * from the service clock once per request: a `/bulk` of 100 items would otherwise format 100 dates). A time after
 * the arrival is a client's clock running ahead: it counts as the arrival, or a single event dated 2099 would be
 * a flag's last track, or a user's last activity, for good.
 */
export function timestampOf(receivedAt: string, timestamp: string | undefined): string {
  if (!timestamp) return receivedAt;
  const at = new Date(timestamp).toISOString();
  return at > receivedAt ? receivedAt : at;
}

/** Ids arrive as strings or JSON numbers and are stored as strings. */
export const idString = (id: string | number): string => (typeof id === 'number' ? String(id) : id);
