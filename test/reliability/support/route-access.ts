import type { ManagementScope, RouteDefinition } from '@flagmount/core';

/**
 * Who may call each route, written from the specs (runtime-api.md "Endpoints", architecture.md "Scopes") and NOT
 * read from the route definitions: the matrix must catch a route table that drifts. A route added later falls under
 * these rules automatically (a new management GET needs `read`, a new write `admin`, …).
 */

export type Access = { kind: 'public' } | { kind: 'sdk'; keys: 'secret' | 'any' } | { kind: 'management'; scope: ManagementScope | 'any' };

const PUBLIC = ['GET /ui', 'GET /ui/assets/{file}', 'GET /openapi.json'];
/** Who is calling: any valid management key (or signed-in person) may ask, whatever its scopes. */
const ANY_CALLER = ['GET /me'];
/**
 * runtime-api.md: GET /features needs the secret key; the node SDK's push stream is server-side too; opt-in changes
 * targeting, so under the default `optIn: 'secret'` policy it takes the secret key only (README, "Opt-in").
 */
const SECRET_ONLY = ['GET /features', 'GET /sse/server', 'POST /flags/opt-in'];
const RUNTIME_PATH = /^\/(features(\/.*)?|user|company|event|feedback(\/.*)?|bulk|sse\/.*|flags\/opt-in|ofrep\/.*)$/;
const WRITE_SCOPES: Array<[RegExp, ManagementScope]> = [
  [/^(POST \/apps\/\{appId\}\/flags|PATCH \/apps\/\{appId\}\/flags\/\{flagId\})$/, 'write:flags'],
  [/^(PATCH \/apps\/\{appId\}\/envs\/\{envId\}\/(users|companies)\/\{\w+\}\/flags|PUT \/apps\/\{appId\}\/flags\/\{flagKey\}\/targeting\/\{envId\})$/, 'write:flag:targeting'],
  [/^(PUT|DELETE) \/apps\/\{appId\}\/envs\/\{envId\}\/(users|companies)\/\{\w+\}$/, 'write:entities'],
  // Scheduled targeting changes are targeting rules (docs/safe-releases.md).
  [/^(POST \/apps\/\{appId\}\/flags\/\{flagKey\}\/schedules|DELETE \/apps\/\{appId\}\/flags\/\{flagKey\}\/schedules\/\{scheduleId\})$/, 'write:flag:targeting'],
];
/** POSTs that change nothing: a targeting preview only reads (docs/safe-releases.md). */
const READ_POSTS = ['POST /apps/{appId}/flags/{flagKey}/targeting/{envId}/preview'];

export function specAccess(route: RouteDefinition): Access {
  const id = `${route.method} ${route.path}`;
  if (PUBLIC.includes(id)) return { kind: 'public' };
  if (RUNTIME_PATH.test(route.path)) return { kind: 'sdk', keys: SECRET_ONLY.includes(id) ? 'secret' : 'any' };
  if (ANY_CALLER.includes(id)) return { kind: 'management', scope: 'any' };
  if (route.method === 'GET' || READ_POSTS.includes(id)) return { kind: 'management', scope: 'read' };
  for (const [pattern, scope] of WRITE_SCOPES) if (pattern.test(id)) return { kind: 'management', scope };
  return { kind: 'management', scope: 'admin' };
}
