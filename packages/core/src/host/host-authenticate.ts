import { HttpError, unauthenticated, unauthorized } from '../http/http-error.js';
import type { Principal } from '../http/route.js';
import type { CoreRequest } from '../http/types.js';
import type { Services } from '../services.js';
import type { Storage } from '../storage/port.js';
import type { ManagementScope } from '../storage/records.js';
import { isCrossOrigin } from './cross-origin.js';
import { syncMember } from './member-sync.js';
import { checkPerson, lowestRole, roleHolds, roleIn, type HostPerson } from './person.js';

/** A mount's `authenticate`: the host's signed-in person for its request (Express `req`, Koa `ctx`, Fastify `request`). */
export type HostAuthenticate = (hostRequest: any) => HostPerson | null | undefined | Promise<HostPerson | null | undefined>;

/** What a mount knows of the host's sign-in. */
export interface HostSignIn {
  authenticate?: HostAuthenticate;
  /** Origins (`https://admin.example.com`) whose cookie-authenticated writes are accepted though cross-origin. */
  trustedOrigins: readonly string[];
}

const orgs = new WeakMap<Storage, string>();

/** The organisation people sign into: the store's first (Flagmount runs one by default). Never changes once known. */
async function organizationOf(storage: Storage): Promise<string> {
  const known = orgs.get(storage);
  if (known) return known;
  const [org] = await storage.organizations.list();
  if (!org) throw unauthenticated('No organization exists yet');
  orgs.set(storage, org.id);
  return org.id;
}

/**
 * A management request without a bearer key, signed in by the host's own session. A cookie-borne write from
 * another site is refused before the host is asked anything. A throwing `authenticate` is "not signed in" (and
 * logged); one that answers something other than a person or null is the host's bug: 500, logged, nobody let in.
 * The role is the person's role in the environment the route addresses, else the lowest they hold anywhere.
 */
export async function authenticatePerson(
  services: Services,
  request: CoreRequest,
  scope: ManagementScope | 'any',
  params: Readonly<Record<string, string>>,
): Promise<Principal> {
  const { authenticate, trustedOrigins } = services.options.host;
  if (!authenticate) throw unauthenticated('Missing bearer token: send Authorization: Bearer <management API key>');
  if (isCrossOrigin(request, trustedOrigins)) {
    throw unauthorized('Cross-origin request refused: a write signed in by cookie must come from this site');
  }
  let answer: unknown;
  try {
    answer = await authenticate(request.hostRequest);
  } catch (error) {
    services.logger.warn('flagmount: authenticate threw; treating the request as not signed in', { error, method: request.method, path: request.path });
    throw unauthenticated('Not signed in');
  }
  if (answer === null || answer === undefined) throw unauthenticated('Not signed in: sign in, or send Authorization: Bearer <management API key>');
  const person = checkPerson(answer);
  if (typeof person === 'string') {
    services.logger.error(`flagmount: authenticate returned no valid person (${person}); refusing the request`, { method: request.method, path: request.path });
    throw new HttpError(500, 'unknown_error', 'The host sign-in returned an invalid person');
  }
  const orgId = await organizationOf(services.storage);
  const envId = params['envId'];
  const role = envId !== undefined ? roleIn(person, services.snapshots.get(envId)?.environment) : lowestRole(person);
  await syncMember(services, orgId, person);
  if (scope !== 'any' && !roleHolds(role, scope)) {
    const where = envId !== undefined ? ' in this environment' : envId === undefined && role !== person.role ? ' in every environment' : '';
    throw unauthorized(`The role "${role}"${where} does not allow this ("${scope}" is required)`);
  }
  return { kind: 'person', person, orgId, role };
}
