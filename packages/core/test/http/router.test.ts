import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/http/route.js';
import { Router } from '../../src/http/router.js';

const route = (method: string, path: string) => ({ method, path }) as unknown as RouteDefinition;

describe('Router', () => {
  const routes = [
    route('GET', '/features/{id}'),
    route('POST', '/features/events'),
    route('GET', '/features/evaluated'),
    route('DELETE', '/apps/{appId}/flags/{flagKey}'),
    route('GET', '/apps/{appId}/flags/{flagKey}'),
  ];
  const router = new Router(routes);

  it('matches a literal route before a route with a parameter, whatever the declaration order', () => {
    expect(router.match('GET', '/features/evaluated')).toEqual({ route: routes[2], params: {} });
    expect(router.match('HEAD', '/features/evaluated')).toEqual({ route: routes[2], params: {} });
    expect(router.match('GET', '/features/x%2Fy')).toEqual({ route: routes[0], params: { id: 'x/y' } });
    // A literal path written with escapes or extra slashes is the same path.
    expect(router.match('GET', '//features/%65valuated/')).toEqual({ route: routes[2], params: {} });
  });

  it('keeps an empty segment inside the path as an empty parameter, not a shorter path', () => {
    expect(router.match('DELETE', '/apps/a/flags//')).toBeUndefined();
    expect(router.match('GET', '/apps//flags/f')).toEqual({ route: routes[4], params: { appId: '', flagKey: 'f' } });
    expect(router.match('GET', '/features//evaluated')).toBeUndefined();
  });

  it('reports the methods a path has when the asked one has no route', () => {
    expect(router.match('PUT', '/features/events')).toEqual({ allowed: ['GET', 'POST'], routes: [routes[0], routes[1]] });
    expect(router.match('PUT', '/apps/a/flags/f')).toMatchObject({ allowed: ['GET', 'DELETE'] });
    expect(router.match('GET', '/nowhere')).toBeUndefined();
    expect(router.match('GET', '/features/%E0%A4%A')).toBeUndefined();
  });
});
