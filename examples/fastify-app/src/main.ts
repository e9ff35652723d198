import { flagmountFastify } from '@flagmount/fastify';
import Fastify from 'fastify';
import { createExampleFlagmount, demo, MAX_HEADER_SIZE, PREFIX, printStartup, readConfig, serve } from '../../shared/src/example.js';

const config = readConfig();
const instance = await createExampleFlagmount(config);

const app = Fastify({ http: { maxHeaderSize: MAX_HEADER_SIZE } });
// Flagmount's routes, parser and error handler live in their own encapsulated context under the prefix.
await app.register(flagmountFastify, { instance, prefix: PREFIX });
app.get('/', async (_request, reply) => reply.type('text/html').send(demo.homePage('Fastify')));
app.get<{ Querystring: { userId?: string } }>('/api/checkout', async (request) => demo.checkout(instance, request.query.userId));

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
