import { createServer } from 'node:http';
import Router from '@koa/router';
import { flagmountKoa } from '@flagmount/koa';
import Koa from 'koa';
import { createExampleFlagmount, demo, MAX_HEADER_SIZE, PREFIX, printStartup, readConfig, serve } from '../../shared/src/example.js';

const config = readConfig();
const instance = await createExampleFlagmount(config);

const app = new Koa();
// Koa has no mount paths: the middleware takes the prefix and passes everything outside it on to `next()`.
app.use(flagmountKoa(instance, { prefix: PREFIX }));
const router = new Router();
router.get('/', (ctx) => {
  ctx.type = 'html';
  ctx.body = demo.homePage('Koa');
});
router.get('/api/checkout', (ctx) => {
  const userId = ctx.query['userId'];
  ctx.body = demo.checkout(instance, typeof userId === 'string' ? userId : undefined);
});
app.use(router.routes()).use(router.allowedMethods());

const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app.callback());
const port = await serve({ server }, instance, config.port);
printStartup(instance, 'Koa', config, port);
