import { defineRoute, raw, type RouteDefinition } from '../../http/route.js';
import type { Principal } from '../../http/route.js';
import type { CoreRequest } from '../../http/types.js';
import { STREAM_HEADERS } from './stream-hub.js';
import type { Services } from '../../services.js';
import { sdkEnvironment } from '../environment.js';

/**
 * A stream for the caller's environment that ends once the keys it was opened with stop opening it. A HEAD gets
 * the stream's headers and takes no connection slot: nothing would ever be written to it, and on the public
 * publishable key a burst of HEADs would otherwise hold every slot until they time out.
 */
function openStream(services: Services, principal: Principal, request: CoreRequest) {
  const { environment, keyKind } = sdkEnvironment(principal);
  if (request.method === 'HEAD') return raw({ status: 200, headers: { ...STREAM_HEADERS } });
  const keys = principal.kind === 'sdk' ? principal.keys : [];
  const holds = () =>
    keys.every((key, i) => {
      const match = services.snapshots.resolveSdkKey(key);
      return match?.environment.id === environment.id && (i > 0 || match.keyKind === keyKind);
    });
  return raw(services.streams.open(environment.id, holds));
}

/**
 * Push for Reflag's node SDK (`flagsSyncMode: 'push'`, `flagsPushUrl: '<mount>/sse/server'`). The SDK's
 * `initialize()` waits for the response headers with no timeout, so they are flushed at once (a stream response).
 */
const serverStream = defineRoute({
  method: 'GET',
  path: '/sse/server',
  operationId: 'getServerFlagUpdates',
  summary: 'Server-Sent Events: flags-updated with the new flagStateVersion (secret key)',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'secret' },
  produces: 'text/event-stream',
  async handle({ services, principal, request }) {
    return openStream(services, principal, request);
  },
});

/**
 * Live updates of the browser SDK (`GET /sse/client?publishableKey=…&context=<json>`). The `context` parameter is
 * accepted and not used: every client of an environment gets the same version notices, and Flagmount sends no
 * feedback prompts.
 */
const clientStream = defineRoute({
  method: 'GET',
  path: '/sse/client',
  operationId: 'getClientFlagUpdates',
  summary: 'Server-Sent Events for browsers: flags-updated with the new flagStateVersion',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'any' },
  produces: 'text/event-stream',
  async handle({ services, principal, request }) {
    return openStream(services, principal, request);
  },
});

export const sseRoutes: RouteDefinition[] = [serverStream, clientStream];
