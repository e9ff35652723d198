import type { RouteDefinition } from './route.js';

export interface RouteMatch {
  route: RouteDefinition;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: RouteDefinition;
  segments: Array<string | { param: string }>;
}

/**
 * Matches method + path against the route table. Literal segments beat parameters, so `/features/events`
 * never reaches a `/features/{id}` route whatever the declaration order.
 */
export class Router {
  private readonly byMethod = new Map<string, CompiledRoute[]>();
  /**
   * Routes without parameters by method, then path: the hot runtime routes are all literal, and a path that equals
   * a literal route is matched by it before any route with a parameter (see `specificity`). Two levels rather than
   * one `method + path` key: the lookup then hashes the request's path as it is, not a string concatenated for it.
   */
  private readonly literal = new Map<string, Map<string, RouteDefinition>>();

  constructor(readonly routes: readonly RouteDefinition[]) {
    for (const route of routes) {
      const segments = route.path
        .split('/')
        .filter(Boolean)
        .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : s));
      const list = this.byMethod.get(route.method) ?? [];
      list.push({ route, segments });
      this.byMethod.set(route.method, list);
      if (segments.every((s) => typeof s === 'string')) {
        const paths = this.literal.get(route.method) ?? new Map<string, RouteDefinition>();
        paths.set(literalPath(segments as string[]), route);
        this.literal.set(route.method, paths);
      }
    }
    for (const list of this.byMethod.values()) list.sort((a, b) => specificity(b) - specificity(a));
  }

  /** `undefined` when nothing matches; `{ allowed }` when the path exists under other methods. */
  match(method: string, path: string): RouteMatch | { allowed: string[]; routes: RouteDefinition[] } | undefined {
    // A path spelled exactly as a literal route (no escapes, no empty segments) is that route: splitting and
    // decoding it would give back the same key, so the hot routes skip both.
    const wanted = method === 'HEAD' ? 'GET' : method;
    const exact = this.literal.get(wanted)?.get(path);
    if (exact) return { route: exact, params: {} };
    const parts = splitPath(path);
    if (!parts) return undefined;
    const found = this.find(wanted, parts);
    if (found) return found;
    const others = [...this.byMethod.keys()].flatMap((m) => this.find(m, parts) ?? []);
    return others.length ? { allowed: others.map((o) => o.route.method), routes: others.map((o) => o.route) } : undefined;
  }

  private find(method: string, parts: string[]): RouteMatch | undefined {
    const literal = this.literal.get(method)?.get(literalPath(parts));
    if (literal) return { route: literal, params: {} };
    for (const compiled of this.byMethod.get(method) ?? []) {
      const params = matchSegments(compiled.segments, parts);
      if (params) return { route: compiled.route, params };
    }
    return undefined;
  }
}

const literalPath = (parts: readonly string[]) => `/${parts.join('/')}`;

/** Whether `path` holds a percent-escape that does not decode (`%ZZ`, half a UTF-8 sequence): it names no route. */
export function malformedPath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

function specificity(r: CompiledRoute): number {
  return r.segments.reduce<number>((n, s, i) => n + (typeof s === 'string' ? 2 ** (20 - i) : 0), 0);
}

/**
 * Path segments, decoded. Extra slashes at either end are forgiven; an empty segment inside the path is kept, so
 * `/users//flags` is a user id of "" (a 400 from the id's length rule) rather than a user called "flags".
 */
function splitPath(path: string): string[] | undefined {
  const all = path.split('?')[0]!.split('/');
  let start = 0;
  let end = all.length;
  while (start < end && all[start] === '') start++;
  while (end > start && all[end - 1] === '') end--;
  const parts = all.slice(start, end);
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

function matchSegments(segments: CompiledRoute['segments'], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (typeof seg === 'string') {
      if (seg !== part) return undefined;
    } else {
      params[seg.param] = part;
    }
  }
  return params;
}
