import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySession from '@fastify/session';
import { flagmountFastify, requireFlag } from '@flagmount/fastify';
import Fastify, { type FastifyRequest } from 'fastify';
import { createExampleFlagmount, demo, MAX_HEADER_SIZE, PREFIX, printStartup, readConfig, serve } from '../../shared/src/example.js';
import { browserSdkScript, flagContext, PAGE_SCRIPT, personFromLogin, publishableKeyOf, renderPage, SESSION_SECRET, sessionPerson, type SessionPerson } from '../../shared/src/people.js';

declare module 'fastify' {
  interface Session {
    person?: SessionPerson;
  }
}

const config = readConfig();
const instance = await createExampleFlagmount(config);

const app = Fastify({ http: { maxHeaderSize: MAX_HEADER_SIZE } });
// The host's own session (@fastify/cookie + @fastify/session): Flagmount reads who is signed in from it.
await app.register(fastifyCookie);
await app.register(fastifySession, { secret: SESSION_SECRET, saveUninitialized: false, cookie: { secure: false, httpOnly: true, sameSite: 'lax' } });
await app.register(fastifyFormbody);
const person = (request: FastifyRequest) => sessionPerson(request.session);
// Flagmount's routes live in their own encapsulated context under the prefix; `context` decorates every request
// of the host with `request.flags`.
await app.register(flagmountFastify, {
  instance,
  prefix: PREFIX,
  authenticate: person,
  context: (request) => flagContext(person(request)),
  current: true,
});

app.get('/', async (request, reply) => reply.type('text/html').send(renderPage('Fastify', request.flags, person(request), publishableKeyOf(instance))));
app.post('/login', async (request, reply) => {
  const signedIn = personFromLogin(request.body);
  if (typeof signedIn === 'string') return reply.code(400).send({ error: signedIn });
  await request.session.regenerate();
  request.session.person = signedIn;
  return request.headers['content-type']?.startsWith('application/json') ? { person: signedIn } : reply.redirect('/', 303);
});
app.post('/logout', async (request, reply) => {
  await request.session.destroy();
  return request.headers['content-type']?.startsWith('application/json') ? { ok: true } : reply.redirect('/', 303);
});
app.get('/beta', { preHandler: requireFlag('beta') }, async (_request, reply) =>
  reply.type('text/html').send('<!doctype html><meta charset="utf-8"><h1>Beta</h1><p>The flag <code>beta</code> is on for you.</p>'),
);
app.get<{ Querystring: { userId?: string } }>('/api/checkout', async (request) => demo.checkout(request.flags, request.query.userId));
app.get('/assets/reflag-browser-sdk.js', async (_request, reply) => reply.type('text/javascript').send(browserSdkScript()));
app.get('/assets/page.js', async (_request, reply) => reply.type('text/javascript').send(PAGE_SCRIPT));

const port = await serve(
  {
    server: app.server,
    // Fastify listens on localhost unless told otherwise; its close() also runs onClose hooks and resolves once
    // the open streams have ended.
    listen: async (p) => {
      await app.listen({ port: p });
      return (app.server.address() as { port: number }).port;
    },
    close: () => app.close(),
  },
  instance,
  config.port,
);
printStartup(instance, 'Fastify', config, port);
