import { authenticatePerson } from '../host/host-authenticate.js';
import { bearerToken, secretsEqual, sha256Hex } from '../security/secrets.js';
import type { Services } from '../services.js';
import type { ManagementScope } from '../storage/records.js';
import { HttpError, unauthenticated, unauthorized } from './http-error.js';
import type { AuthRequirement, Principal } from './route.js';
import type { CoreRequest } from './types.js';

const hasScope = (scopes: readonly ManagementScope[], scope: ManagementScope) =>
  scopes.includes('admin') || scopes.includes(scope);

/**
 * Management routes: a missing or unknown bearer (an SDK key included) is 401 `unauthenticated`; a valid key
 * without the route's scope is 403 `unauthorized`. Without a bearer, the host's sign-in is asked (when the mount
 * has one). Runtime routes: any key problem is 403 (runtime-api.md).
 */
export function authenticate(
  services: Services,
  request: CoreRequest,
  requirement: AuthRequirement,
  params: Readonly<Record<string, string>>,
): Principal | Promise<Principal> {
  if (requirement.kind === 'public') return { kind: 'public' };
  if (requirement.kind === 'management') return authenticateManagement(services, request, requirement.scope, params);
  return authenticateSdk(services, request, requirement.keys);
}

async function authenticateManagement(
  services: Services,
  request: CoreRequest,
  scope: ManagementScope | 'any',
  params: Readonly<Record<string, string>>,
): Promise<Principal> {
  const token = bearerToken(request.headers.authorization);
  // A bearer key, when sent, decides alone: it is not a cookie a browser attaches by itself, so no CSRF check.
  if (!token) return authenticatePerson(services, request, scope, params);
  const hash = sha256Hex(token);
  const key = await services.storage.managementKeys.getByHash(hash);
  if (!key || key.revokedAt || !secretsEqual(key.hash, hash)) throw unauthenticated('Invalid management API key');
  if (scope !== 'any' && !hasScope(key.scopes, scope)) throw unauthorized(`This key lacks the scope "${scope}"`);
  return { kind: 'management', key };
}

function sdkForbidden(message: string): HttpError {
  return new HttpError(403, 'unauthorized', message);
}

function authenticateSdk(services: Services, request: CoreRequest, keys: 'secret' | 'any'): Principal {
  const header = bearerToken(request.headers.authorization);
  let fromQuery: string | undefined;
  for (const [name, value] of request.query) {
    if (name !== 'publishableKey') continue;
    if (fromQuery !== undefined) throw sdkForbidden('publishableKey was sent more than once');
    fromQuery = value;
  }
  if (!header && fromQuery === undefined) throw sdkForbidden('Missing SDK key: send Authorization: Bearer <key>');
  // A key in the query is checked even when the header carries one: an invalid key, or a secret key in a URL (it
  // ends up in logs and browser history), is refused rather than silently ignored.
  const inQuery = fromQuery === undefined ? undefined : services.snapshots.resolveSdkKey(fromQuery);
  if (fromQuery !== undefined && !inQuery) throw sdkForbidden('Invalid SDK key');
  if (inQuery?.keyKind === 'secret') throw sdkForbidden('A secret key is accepted only in the Authorization header');
  // The same key in both places is looked up once.
  const match = header && header !== fromQuery ? services.snapshots.resolveSdkKey(header) : inQuery;
  if (!match) throw sdkForbidden('Invalid SDK key');
  if (inQuery && inQuery.environment.id !== match.environment.id) {
    throw sdkForbidden('publishableKey and the Authorization header name different environments');
  }
  if (keys === 'secret' && match.keyKind !== 'secret') throw sdkForbidden('This endpoint requires the secret key');
  const sent = header ? (fromQuery === undefined || fromQuery === header ? [header] : [header, fromQuery]) : [fromQuery!];
  return { kind: 'sdk', environment: match.environment, keyKind: match.keyKind, keys: sent };
}
