import { expect, it } from 'vitest';
import { forEachProbeHost, isErrorBody } from './support/probe.js';

for (const prefix of ['/flags', '/flags/']) {
  forEachProbeHost(`prefix "${prefix}"`, { prefix }, (host) => {
    it('answers the prefix itself, with and without a trailing slash', async () => {
      for (const path of ['/flags', '/flags/', '/flags?x=1', '/flags/?x=1']) {
        const res = await host().fetch(path);
        expect(res.status, path).toBe(200);
        expect(await res.json(), path).toEqual({ probe: 'root' });
      }
    });

    it('answers paths below the prefix, with the query and no prefix in the core request', async () => {
      const res = await host().fetch('/flags/apps?context.user.id=42&a=1&a=2');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ probe: 'apps' });
      const seen = host().probe.seen.at(-1)!;
      expect(seen.path).toBe('/apps');
      expect(seen.query).toEqual([
        ['context.user.id', '42'],
        ['a', '1'],
        ['a', '2'],
      ]);
    });

    it('leaves a path that only starts like the prefix to the host', async () => {
      const res = await host().fetch('/flagsx/apps');
      expect(res.status).toBe(404);
      expect(isErrorBody(await res.json().catch(() => undefined), 'not_found')).toBe(false);
    });
  });
}

forEachProbeHost('host routes beside the mount', {}, (host) => {
  it('serves the host route with the same path outside the prefix', async () => {
    const outside = await host().fetch('/apps');
    expect(await outside.json()).toEqual({ host: 'apps' });
    const inside = await host().fetch('/flags/apps');
    expect(await inside.json()).toEqual({ probe: 'apps' });
    expect(await (await host().fetch('/host/ping')).json()).toEqual({ host: true });
  });

  it('answers a 404 inside the prefix with the error body', async () => {
    for (const path of ['/flags/nope', '/flags/apps/x/y', '/flags/apps%2Fx']) {
      const res = await host().fetch(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(isErrorBody(await res.json(), 'not_found'), path).toBe(true);
    }
  });

  it('answers a malformed path inside the prefix with a 400 and keeps serving', async () => {
    // Express and Koa hand the URL over and the core answers; Fastify's router refuses it with its own 400 before
    // any plugin runs (the host's `frameworkErrors` option decides that body).
    for (const path of ['/flags/%E0%A4%A', '/flags/apps/%ZZ', '/flags/apps/x/envs/y/users/%ZZ/flags']) {
      const res = await host().fetch(path);
      expect(res.status, path).toBe(400);
      if (host().adapter !== 'fastify') expect(isErrorBody(await res.json(), 'invalid_request'), path).toBe(true);
    }
    expect(host().hostErrors).toEqual([]);
    expect((await host().fetch('/flags/apps')).status).toBe(200);
  });

  it('leaves a 404 outside the prefix to the host', async () => {
    const res = await host().fetch('/nope');
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toContain('not_found');
  });

  it('answers a wrong method inside the prefix with 405 and Allow', async () => {
    const res = await host().fetch('/flags/apps', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(isErrorBody(await res.json(), 'not_allowed')).toBe(true);
    // A method no route uses at all still gets Flagmount's answer, not the framework's.
    const odd = await host().fetch('/flags/apps', { method: 'PROPFIND' });
    expect(odd.status).toBe(405);
    expect(isErrorBody(await odd.json(), 'not_allowed')).toBe(true);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await host().fetch('/flags/apps', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe('');
  });

  it('sends a bodiless answer (a redirect) without a body or a content type', async () => {
    const res = await host().fetch('/flags/moved', { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('apps');
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it('answers a CORS preflight inside the prefix', async () => {
    const res = await host().fetch('/flags/apps', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, reflag-sdk-version',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(await res.text()).toBe('');
  });

  it('answers OPTIONS on an unknown path inside the prefix with the 404 body', async () => {
    const res = await host().fetch('/flags/nope', { method: 'OPTIONS' });
    expect(res.status).toBe(404);
    expect(isErrorBody(await res.json(), 'not_found')).toBe(true);
  });

  it('keeps errors inside Flagmount: 500 and 503 bodies, nothing reaches the host error handler', async () => {
    const boom = await host().fetch('/flags/boom');
    expect(boom.status).toBe(500);
    expect(isErrorBody(await boom.json(), 'unknown_error')).toBe(true);
    const down = await host().fetch('/flags/down');
    expect(down.status).toBe(503);
    expect(isErrorBody(await down.json(), 'not_available')).toBe(true);
    expect(host().hostErrors).toEqual([]);
    // The host's own error handler still works (the test host is wired correctly).
    const hostBoom = await host().fetch('/host/boom');
    expect(hostBoom.status).toBe(500);
    expect(await hostBoom.json()).toEqual({ hostError: true });
    expect(host().hostErrors).toHaveLength(1);
  });

  it('answers 500 when a response header cannot be written, without involving the host', async () => {
    const res = await host().fetch('/flags/bad-header');
    expect(res.status).toBe(500);
    expect(host().hostErrors).toEqual([]);
    expect((await host().fetch('/flags/apps')).status).toBe(200);
  });

  it('accepts a 16 KiB context in the URL', async () => {
    const contextJson = JSON.stringify({ user: { id: 'u1', blob: 'x'.repeat(16 * 1024) } });
    const res = await host().fetch(`/flags/apps?contextJson=${encodeURIComponent(contextJson)}`);
    expect(res.status).toBe(200);
    expect(host().probe.seen.at(-1)!.query[0]).toEqual(['contextJson', contextJson]);
  });
});

forEachProbeHost(
  'management and runtime on two prefixes',
  { prefix: '/flags', host: { mount: { management: false }, extraMounts: [{ prefix: '/manage', options: { runtime: false } }] } },
  (host) => {
    it('serves each route group only on its own mount', async () => {
      expect((await host().fetch('/flags/apps')).status).toBe(200);
      const hidden = await host().fetch('/flags/admin');
      expect(hidden.status).toBe(404);
      expect(isErrorBody(await hidden.json(), 'not_found')).toBe(true);
      expect(await (await host().fetch('/manage/admin')).json()).toEqual({ probe: 'admin' });
      expect((await host().fetch('/manage/apps')).status).toBe(404);
    });
  },
);

forEachProbeHost('per-mount CORS', { host: { mount: { cors: { origins: ['https://allowed.example'] } } } }, (host) => {
  it('uses the mount CORS options instead of the instance ones', async () => {
    const allowed = await host().fetch('/flags/apps', { headers: { origin: 'https://allowed.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://allowed.example');
    const other = await host().fetch('/flags/apps', { headers: { origin: 'https://other.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
