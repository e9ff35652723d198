import type { Static, TSchema } from '@sinclair/typebox';
import type { EnvironmentRecord, ManagementKeyRecord, ManagementScope } from '../storage/records.js';
import type { Person, Role } from '../host/person.js';
import type { Services } from '../services.js';
import type { HttpError } from './http-error.js';
import type { CoreRequest, CoreResponse } from './types.js';

/** Who may call a route. */
export type AuthRequirement =
  /**
   * A management API key holding `scope` (`admin` holds every scope), or a person signed in by the host whose role
   * holds it; `any`: any valid key or person.
   */
  | { kind: 'management'; scope: ManagementScope | 'any' }
  /** An environment's SDK key: the secret one only (header), or either (publishable also as `?publishableKey=`). */
  | { kind: 'sdk'; keys: 'secret' | 'any' }
  | { kind: 'public' };

export type Principal =
  | { kind: 'management'; key: ManagementKeyRecord }
  /** A person signed in by the host; `role` is the one that applied to this request (its environment's). */
  | { kind: 'person'; person: Person; orgId: string; role: Role }
  /**
   * `keys`: every SDK key the request sent, as sent, the one that decided first (the header's, else the query's): a
   * live stream checks they all still hold after a rotation, as a new request would.
   */
  | { kind: 'sdk'; environment: EnvironmentRecord; keyKind: 'publishable' | 'secret'; keys: readonly string[] }
  | { kind: 'public' };

type StaticOr<T extends TSchema | undefined, D> = T extends TSchema ? Static<T> : D;

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: CoreRequest;
  principal: Principal;
  services: Services;
}

export interface RouteDefinition<
  PS extends TSchema | undefined = TSchema | undefined,
  QS extends TSchema | undefined = TSchema | undefined,
  BS extends TSchema | undefined = TSchema | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the mount, with `{name}` parameters: `/apps/{appId}/flags`. */
  path: string;
  operationId: string;
  summary: string;
  /** `management` and `runtime` are the two spec documents; `extension` marks routes Flagmount adds. */
  surface: 'management' | 'runtime';
  tags: string[];
  auth: AuthRequirement;
  params?: PS;
  query?: QS;
  body?: BS;
  /** The 200 body, for the OpenAPI document. */
  response?: TSchema;
  /** Content type of the 200 body when it is not JSON (SSE, HTML, …). */
  produces?: string;
  /**
   * The answer to an error of this route (a bad body, a key refused, a failure of the handler), for a protocol with
   * error bodies of its own (OFREP); undefined, or no such function, keeps the core's error body.
   */
  errorResponse?(error: HttpError, request: CoreRequest, params: Record<string, string>): CoreResponse | undefined;
  /**
   * What the key may do beyond `auth`, when that depends on the server's options: throws the 403. Runs after the
   * key check and before anything is validated, so a caller that may not use the route learns nothing of its body.
   */
  authorize?(services: Services, principal: Principal): void;
  /**
   * Resolves the JSON body of a 200, or a complete `CoreResponse` (streams, other statuses, other content types).
   * May answer synchronously: the evaluate routes do when everything they need is in memory.
   */
  handle(
    ctx: RouteContext<StaticOr<PS, Record<string, never>>, StaticOr<QS, Record<string, never>>, StaticOr<BS, undefined>>,
  ): unknown;
}

/** Keeps the schema types attached to the handler's context; purely for inference. */
export function defineRoute<
  PS extends TSchema | undefined = undefined,
  QS extends TSchema | undefined = undefined,
  BS extends TSchema | undefined = undefined,
>(route: RouteDefinition<PS, QS, BS>): RouteDefinition {
  return route as unknown as RouteDefinition;
}

/** A handler result that is already a full response. */
export class RawResponse {
  constructor(readonly response: CoreResponse) {}
}
export const raw = (response: CoreResponse) => new RawResponse(response);
