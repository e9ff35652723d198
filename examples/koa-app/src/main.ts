import { createServer } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { flagmountKoa, requestFlags, requireFlag } from '@flagmount/koa';
import Koa from 'koa';
import session from 'koa-session';
import { createExampleFlagmount, demo, MAX_HEADER_SIZE, PREFIX, printStartup, readConfig, serve } from '../../shared/src/example.js';
import { browserSdkScript, flagContext, PAGE_SCRIPT, personFromLogin, publishableKeyOf, renderPage, SESSION_SECRET, sessionPerson } from '../../shared/src/people.js';

const config = readConfig();
const instance = await createExampleFlagmount(config);

const app = new Koa();
app.keys = [SESSION_SECRET];
// The host's own session (koa-session, signed cookie): Flagmount reads who is signed in from it.
app.use(session({ key: 'demo.sid', httpOnly: true, sameSite: 'lax' }, app));
// Koa has no mount paths: the middleware takes the prefix and passes everything outside it on to `next()`.
app.use(flagmountKoa(instance, { prefix: PREFIX, authenticate: (ctx: Koa.Context) => sessionPerson(ctx.session) }));
app.use(bodyParser({ enableTypes: ['json', 'form'] }));
// Every request gets `ctx.state.flags`, bound to the signed-in person.
app.use(requestFlags(instance, { context: (ctx) => flagContext(sessionPerson(ctx.session)), current: true }));

const router = new Router();
router.get('/', (ctx) => {
  ctx.type = 'html';
  ctx.body = renderPage('Koa', ctx.state.flags, sessionPerson(ctx.session), publishableKeyOf(instance));
});
router.post('/login', (ctx) => {
  const person = personFromLogin((ctx.request as { body?: unknown }).body);
  if (typeof person === 'string') {
    ctx.status = 400;
    ctx.body = { error: person };
    return;
  }
  ctx.session!.person = person;
  if (ctx.is('json')) ctx.body = { person };
  else {
    ctx.status = 303;
    ctx.redirect('/');
  }
});
router.post('/logout', (ctx) => {
  ctx.session = null;
  if (ctx.is('json')) ctx.body = { ok: true };
  else {
    ctx.status = 303;
    ctx.redirect('/');
  }
});
router.get('/beta', requireFlag('beta'), (ctx) => {
  ctx.type = 'html';
  ctx.body = '<!doctype html><meta charset="utf-8"><h1>Beta</h1><p>The flag <code>beta</code> is on for you.</p>';
});
router.get('/api/checkout', (ctx) => {
  const userId = ctx.query['userId'];
  ctx.body = demo.checkout(ctx.state.flags, typeof userId === 'string' ? userId : undefined);
});
router.get('/assets/reflag-browser-sdk.js', (ctx) => void ((ctx.type = 'js'), (ctx.body = browserSdkScript())));
router.get('/assets/page.js', (ctx) => void ((ctx.type = 'js'), (ctx.body = PAGE_SCRIPT)));
app.use(router.routes()).use(router.allowedMethods());

const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app.callback());
const port = await serve({ server }, instance, config.port);
printStartup(instance, 'Koa', config, port);
