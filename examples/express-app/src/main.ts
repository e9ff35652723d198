import { createServer } from 'node:http';
import { flagmountExpress, requestFlags, requireFlag } from '@flagmount/express';
import express from 'express';
import session from 'express-session';
import { createExampleFlagmount, demo, MAX_HEADER_SIZE, PREFIX, printStartup, readConfig, serve } from '../../shared/src/example.js';
import { browserSdkScript, flagContext, PAGE_SCRIPT, personFromLogin, publishableKeyOf, renderPage, SESSION_SECRET, sessionPerson, type SessionPerson } from '../../shared/src/people.js';

declare module 'express-session' {
  interface SessionData {
    person: SessionPerson;
  }
}

const config = readConfig();
const instance = await createExampleFlagmount(config);

const app = express();
// The host's own session (express-session; Passport's `req.user` works the same way): Flagmount reads it.
app.use(session({ secret: SESSION_SECRET, resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }));
// Flagmount first among the body readers: it reads its own bodies. Signed-in people use the API and dashboard.
app.use(PREFIX, flagmountExpress(instance, { authenticate: (req: express.Request) => sessionPerson(req.session) }));
app.use(express.json(), express.urlencoded({ extended: false }));
// Every request gets `req.flags`, bound to the signed-in person.
app.use(requestFlags(instance, { context: (req) => flagContext(sessionPerson(req.session)), current: true }));

app.get('/', (req, res) => {
  res.type('html').send(renderPage('Express', req.flags, sessionPerson(req.session), publishableKeyOf(instance)));
});
app.post('/login', (req, res) => {
  const person = personFromLogin(req.body);
  if (typeof person === 'string') return void res.status(400).json({ error: person });
  req.session.regenerate((error) => {
    if (error) return void res.status(500).json({ error: 'session' });
    req.session.person = person;
    if (req.is('json')) res.json({ person });
    else res.redirect(303, '/');
  });
});
app.post('/logout', (req, res) => {
  req.session.destroy(() => (req.is('json') ? res.json({ ok: true }) : res.redirect(303, '/')));
});
app.get('/beta', requireFlag('beta'), (_req, res) => {
  res.type('html').send('<!doctype html><meta charset="utf-8"><h1>Beta</h1><p>The flag <code>beta</code> is on for you.</p>');
});
app.get('/api/checkout', (req, res) => {
  res.json(demo.checkout(req.flags, typeof req.query['userId'] === 'string' ? req.query['userId'] : undefined));
});
app.get('/assets/reflag-browser-sdk.js', (_req, res) => void res.type('js').send(browserSdkScript()));
app.get('/assets/page.js', (_req, res) => void res.type('js').send(PAGE_SCRIPT));

const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app);
const port = await serve({ server }, instance, config.port);
printStartup(instance, 'Express', config, port);
